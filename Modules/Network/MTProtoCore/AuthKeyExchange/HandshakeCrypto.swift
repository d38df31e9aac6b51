import CryptoUtils
import TLRuntime

/// What both sides of the auth-key exchange do the same way (MTProto §Creating an Authorization Key, steps 5–6):
/// the inner data of `server_DH_params_ok` and of `set_client_DH_params` travel as `SHA1(data) ‖ data ‖ padding`
/// under AES-256-IGE with the temporary key and IV derived from new_nonce and server_nonce, and the shared key
/// g^ab mod dh_prime becomes the 256-byte auth key.
enum HandshakeCrypto {
    /// Encrypts `data` as the inner data of step 5 or 6.
    static func sealInner(
        _ data: [UInt8], newNonce: [UInt8], serverNonce: TLInt128, random: (Int) -> [UInt8]
    ) throws(AuthKeyExchangeError) -> [UInt8] {
        let (key, iv) = MTProtoKeyDerivation.temporaryAESKeyIV(newNonce: newNonce, serverNonce: serverNonce.bytes)
        do {
            return try AESIGE.encrypt(withHashPadded(data, random: random), key: key, iv: iv)
        } catch {
            throw .crypto(error)
        }
    }

    /// Decrypts the inner data of step 5 or 6 and parses it with `parse`, the SHA-1 checked over exactly the bytes
    /// parsed (in constant time) and at most 15 bytes of padding after them.
    static func openInner<T>(
        _ encrypted: [UInt8], newNonce: [UInt8], serverNonce: TLInt128,
        _ parse: (inout TLReader) throws(TLDecodingError) -> T
    ) throws(AuthKeyExchangeError) -> T {
        guard encrypted.count % 16 == 0, !encrypted.isEmpty else { throw .answerHashMismatch }
        let (key, iv) = MTProtoKeyDerivation.temporaryAESKeyIV(newNonce: newNonce, serverNonce: serverNonce.bytes)
        let plaintext: [UInt8]
        do { plaintext = try AESIGE.decrypt(encrypted, key: key, iv: iv) } catch { throw .crypto(error) }
        return try parseWithHash(plaintext, parse)
    }

    /// g^ab mod dh_prime from the peer's public value and our secret, as the 256 big-endian bytes of the auth key
    /// (leading zero bytes kept).
    static func authKey(peerValue: [UInt8], secret: [UInt8], prime: [UInt8]) throws(AuthKeyExchangeError) -> [UInt8] {
        let shared: [UInt8]
        do {
            shared = try DiffieHellman.sharedKey(peerValue: peerValue, secret: secret, prime: prime)
        } catch {
            throw .crypto(error)
        }
        return [UInt8](repeating: 0, count: max(0, 256 - shared.count)) + shared
    }
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
