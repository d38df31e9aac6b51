/// Why the notification service did not store a push; one line each, with what to do, and the exit code the tool
/// returns (CommandLineOutput's convention: 2 for input the service cannot use, 1 for a failure of its own).
public struct NotificationServiceError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The file is not a push (`{"p": …}`), or is cut short.
        case malformed
        /// No account here has the key the push names: never registered here, or logged out.
        case unknownKey
        /// The payload does not decrypt to what its msg_key promises: changed on the way, or made with another key.
        case tampered
        /// It decrypted, but is not a push this service understands.
        case unsupported
        /// The account's key or Postbox could not be read or written.
        case storage
    }

    public let kind: Kind
    public let reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }

    /// 2 for input the service cannot use, 1 when its own storage failed.
    public var exitCode: Int32 { kind == .storage ? 1 : 2 }
}
