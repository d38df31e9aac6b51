public import CryptoUtils

/// A secret chat's file (core.telegram.org "End-to-End Encryption", Sending encrypted files): a random 256-bit key
/// and 256-bit IV per file, AES-256-IGE over the file padded with random bytes to whole blocks, uploaded in parts as
/// any file and announced as `inputEncryptedFileUploaded` with `key_fingerprint = md5(key ‖ iv)[0..<4] XOR
/// md5(key ‖ iv)[4..<8]` (two little-endian int32s); the key and IV travel inside the encrypted message
/// (`decryptedMessageMediaDocument`), never to the server. The key and IV are never printed.
public struct SecretChatFileKey: Sendable, Codable, Equatable, CustomStringConvertible {
    public let key: [UInt8]
    public let iv: [UInt8]

    /// A new key and IV.
    public init(random: SecretChatRandom = .secure) {
        key = random.bytes(32)
        iv = random.bytes(32)
    }

    /// A key and IV received in a message; nil unless both are 32 bytes.
    public init?(key: [UInt8], iv: [UInt8]) {
        guard key.count == 32, iv.count == 32 else { return nil }
        self.key = key
        self.iv = iv
    }

    /// `key_fingerprint` of `inputEncryptedFileUploaded` and `encryptedFile`.
    public var fingerprint: Int32 {
        let digest = Digest.md5(key + iv)
        func int32(_ offset: Int) -> Int32 {
            Int32(
                bitPattern: UInt32(digest[offset]) | UInt32(digest[offset + 1]) << 8 | UInt32(digest[offset + 2]) << 16
                    | UInt32(digest[offset + 3]) << 24)
        }
        return int32(0) ^ int32(4)
    }

    /// The file encrypted for upload (its length rounded up to 16 with random bytes).
    public func encrypt(_ data: [UInt8], random: SecretChatRandom = .secure) -> [UInt8] {
        let padded = data + random.bytes((16 - data.count % 16) % 16)
        return (try? AESIGE.encrypt(padded, key: key, iv: iv)) ?? []
    }

    /// Why a downloaded file was refused.
    public enum Failure: Error, Equatable, Sendable {
        /// The server's `encryptedFile.key_fingerprint` is not this key's: the file is not the one the message named.
        case fingerprintMismatch
        /// Not whole blocks, or shorter than the size the message gave.
        case badLength(Int)
    }

    /// The downloaded file decrypted and cut to `size`, after checking the server's fingerprint against the key's.
    public func decrypt(_ data: [UInt8], size: Int, serverFingerprint: Int32) throws(Failure) -> [UInt8] {
        guard serverFingerprint == fingerprint else { throw .fingerprintMismatch }
        guard data.count % 16 == 0, size >= 0, size <= data.count,
            let plain = try? AESIGE.decrypt(data, key: key, iv: iv)
        else { throw .badLength(data.count) }
        return Array(plain[0..<size])
    }

    public var description: String { "SecretChatFileKey(fingerprint: \(fingerprint), <redacted>)" }
}
