public import CryptoUtils
public import TLRuntime

/// Why an auth-key exchange stopped. Every check of MTProto §Creating an Authorization Key and of the security
/// guidelines' mandatory checks has a case; the exchange must then be abandoned (and a server closes the
/// connection).
public enum AuthKeyExchangeError: Error, Equatable, Sendable {
    case unexpectedMessage(String)
    case nonceMismatch
    case serverNonceMismatch
    case newNonceHashMismatch
    /// None of the server's fingerprints belongs to a key this client trusts.
    case unknownFingerprint([Int64])
    case pqNotFactorable
    case pqMismatch
    case answerHashMismatch
    case dh(DiffieHellman.Failure)
    case crypto(CryptoError)
    case decoding(TLDecodingError)
    /// The server answered dh_gen_fail or server_DH_params_fail.
    case refusedByServer
    /// Too many dh_gen_retry rounds.
    case tooManyRetries
}

/// Big-endian bytes of an unsigned integer without leading zeros, as TL writes pq, p and q.
func bigEndianMinimal(_ value: UInt64) -> [UInt8] {
    var bytes: [UInt8] = []
    var v = value
    while v > 0 {
        bytes.insert(UInt8(v & 0xff), at: 0)
        v >>= 8
    }
    return bytes.isEmpty ? [0] : bytes
}

/// The unsigned integer of big-endian bytes; `nil` past 64 bits.
func uint64(bigEndian bytes: [UInt8]) -> UInt64? {
    let trimmed = bytes.drop { $0 == 0 }
    guard trimmed.count <= 8 else { return nil }
    return trimmed.reduce(0) { $0 << 8 | UInt64($1) }
}

/// `SHA1(data) ‖ data ‖ random` padded to a multiple of 16 (steps 5 and 6: the plaintext of the encrypted answer
/// and of set_client_DH_params).
func withHashPadded(_ data: [UInt8], random: (Int) -> [UInt8]) -> [UInt8] {
    let body = Digest.sha1(data) + data
    return body + random((16 - body.count % 16) % 16)
}

/// Parses `SHA1(data) ‖ data ‖ padding` with `parse`, checking the hash over exactly the bytes `parse` consumed and
/// that fewer than `trailingLimit` padding bytes follow.
func parseWithHash<T>(
    _ plaintext: [UInt8], trailingLimit: Int = 16, _ parse: (inout TLReader) throws(TLDecodingError) -> T
) throws(AuthKeyExchangeError) -> T {
    guard plaintext.count > 20 else { throw .answerHashMismatch }
    var reader = TLReader(Array(plaintext[20...]))
    let value: T
    do {
        value = try parse(&reader)
    } catch {
        throw .decoding(error)
    }
    let consumed = reader.offset
    guard reader.remaining < trailingLimit,
        ConstantTime.equals(Digest.sha1(Array(plaintext[20..<(20 + consumed)])), plaintext[0..<20])
    else {
        throw .answerHashMismatch
    }
    return value
}
