/// The SQLCipher key material of a Postbox: a raw 32-byte key and 16-byte salt (Telegram-iOS
/// `ValueBoxEncryptionParameters`).
///
/// Its `description`, `debugDescription` and mirror (`dump`, `String(reflecting:)`) show no key byte.
public struct PostboxEncryptionParameters: Equatable, Sendable {
    /// The 256-bit key.
    public let key: [UInt8]
    /// The 128-bit salt.
    public let salt: [UInt8]

    /// Key material; throws `invalidEncryptionParameters` unless the key is 32 bytes and the salt 16.
    public init(key: [UInt8], salt: [UInt8]) throws(PostboxError) {
        guard key.count == 32, salt.count == 16 else { throw .invalidEncryptionParameters }
        self.key = key
        self.salt = salt
    }

    /// Key material from 48 bytes (key ‖ salt), e.g. a key file; throws unless exactly 48 bytes.
    public init(keyAndSalt bytes: [UInt8]) throws(PostboxError) {
        guard bytes.count == 48 else { throw .invalidEncryptionParameters }
        try self.init(key: Array(bytes[0..<32]), salt: Array(bytes[32..<48]))
    }

    /// Key material from 96 hex digits (key ‖ salt), e.g. an environment variable.
    public init(hex: String) throws(PostboxError) {
        let digits = Array(hex.utf8.filter { !($0 == 32 || $0 == 10 || $0 == 13 || $0 == 9) })
        guard digits.count == 96 else { throw .invalidEncryptionParameters }
        var bytes: [UInt8] = []
        for pair in stride(from: 0, to: 96, by: 2) {
            guard let high = Self.nibble(digits[pair]), let low = Self.nibble(digits[pair + 1]) else {
                throw .invalidEncryptionParameters
            }
            bytes.append(high << 4 | low)
        }
        try self.init(keyAndSalt: bytes)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 97...102: return c - 87
        case 65...70: return c - 55
        default: return nil
        }
    }
}

extension PostboxEncryptionParameters: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "PostboxEncryptionParameters(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
