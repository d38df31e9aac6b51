import Buffers
import CryptoUtils

/// The 256-byte secret an account gives the server with `account.registerDevice` so that pushes reach the device
/// encrypted (core.telegram.org "Handling PUSH-notifications", encrypted notifications; Telegram-iOS
/// `MasterNotificationKey`). Its id, like an `auth_key_id`, is the last 8 bytes of SHA1(key); every encrypted push
/// starts with it, so a device with several accounts finds the right key before decrypting.
public struct NotificationKey: Sendable, Equatable {
    /// The secret's length.
    public static let length = 256

    /// The 256 key bytes.
    public let bytes: [UInt8]
    /// The last 8 bytes of SHA1(bytes), in the order a push carries them.
    public let id: [UInt8]

    /// Wraps 256 key bytes; `nil` for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.length else { return nil }
        self.bytes = bytes
        id = Array(Digest.sha1(bytes)[12..<20])
    }

    /// A new random key.
    public static func generate() -> NotificationKey {
        // 256 bytes by construction.
        NotificationKey(bytes: SecureRandom.bytes(length))!
    }

    /// The id as 16 lower-case hex digits (how key files are named).
    public var idHex: String { Self.hex(id) }

    /// Lower-case hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String { MemoryBuffer(bytes).hexString }
}

extension NotificationKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Only the id: key bytes are never printed or logged.
    public var description: String { "NotificationKey(id: \(idHex))" }
    public var debugDescription: String { description }
    /// Only the id, for `dump` and debuggers too.
    public var customMirror: Mirror { Mirror(self, children: ["id": idHex]) }
}
