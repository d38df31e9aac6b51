extension Database {
    /// The key material of an encrypted database: 32 key bytes and 16 salt bytes, passed to SQLCipher raw.
    ///
    /// Its `description`, `debugDescription` and mirror (`dump`, `String(reflecting:)`) show no key byte: key
    /// material must never reach a log, an error or a test failure message.
    public struct CipherKey: Equatable, Sendable {
        /// The 256-bit key.
        public let key: [UInt8]
        /// The 128-bit salt (stored outside the file because the header is plaintext).
        public let salt: [UInt8]

        /// Key material; `nil` unless `key` is 32 bytes and `salt` 16.
        public init?(key: [UInt8], salt: [UInt8]) {
            guard key.count == 32, salt.count == 16 else { return nil }
            self.key = key
            self.salt = salt
        }

        /// Calls `body` with key ‖ salt in a temporary buffer that is zeroed afterwards.
        func withMaterial<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            var material = key + salt
            defer { material.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
            return material.withUnsafeBufferPointer(body)
        }
    }
}

extension Database.CipherKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "CipherKey(redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
