public import Postbox
public import PostboxCoding

/// Why the server refused an outgoing message for good (kept with the failed message so a UI can say it; "resend"
/// removes it). Telegram-iOS shows these as `PendingMessageFailureReason`.
public enum SendFailureReason: Int32, Hashable, Sendable {
    /// Something else the server said; `SendFailureAttribute.detail` has its error text.
    case other = 0
    case messageEmpty = 1
    case messageTooLong = 2
    /// The chat cannot be written to: the peer is unknown, deleted, or the account left the group.
    case peerUnavailable = 3
    /// One side blocked the other.
    case blocked = 4
    /// The wait the server asked for is longer than the client waits by itself.
    case tooManyRequests = 5
}

/// The failure of an outgoing message.
public struct SendFailureAttribute: MessageAttribute, Hashable {
    public var reason: SendFailureReason
    /// The server's error text (`MESSAGE_TOO_LONG`, …).
    public var detail: String

    public init(reason: SendFailureReason, detail: String) {
        self.reason = reason
        self.detail = detail
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        reason = SendFailureReason(rawValue: decoder.decodeInt32ForKey("r", orElse: 0)) ?? .other
        detail = decoder.decodeStringForKey("d", orElse: "")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt32(reason.rawValue, forKey: "r")
        encoder.encodeString(detail, forKey: "d")
    }
}
