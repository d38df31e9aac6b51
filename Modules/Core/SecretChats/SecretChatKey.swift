public import CryptoUtils

/// A secret chat's 256-byte shared key and its fingerprint (core.telegram.org "End-to-End Encryption, Secret
/// Chats", Key Generation): the fingerprint is the low 64 bits of SHA1(key), bytes 12…19 of the digest read
/// little-endian, as `key_fingerprint` carries it. The key's bytes are never printed.
public struct SecretChatKey: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The 256 key bytes (`pow(g_b, a) mod p`, left-padded to 256).
    public let bytes: [UInt8]
    /// `key_fingerprint`.
    public let fingerprint: Int64

    /// A key from its bytes; nil unless there are exactly 256.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 256 else { return nil }
        self.bytes = bytes
        self.fingerprint = SecretChatKey.fingerprint(of: bytes)
    }

    /// The low 64 bits of SHA1(key).
    public static func fingerprint(of key: [UInt8]) -> Int64 {
        let digest = Digest.sha1(key)
        var value: UInt64 = 0
        for index in (12..<20).reversed() { value = value << 8 | UInt64(digest[index]) }
        return Int64(bitPattern: value)
    }

    public var description: String { "SecretChatKey(fingerprint: \(fingerprint), <redacted>)" }
}

/// Left-pads a big-endian number to `count` bytes.
func leftPadded(_ value: [UInt8], to count: Int) -> [UInt8] {
    value.count >= count ? Array(value.suffix(count)) : [UInt8](repeating: 0, count: count - value.count) + value
}
