public import Postbox
public import PostboxCoding

/// Marks a message the notification service stored from a push: it has only what a push carries (text, author,
/// date, id), so when the same message comes from the server (`getDifference`, a history page) the app replaces it
/// with the full one instead of keeping it (Telegram-iOS's extension stores such minimal messages for the app).
public struct NotificationMessageAttribute: MessageAttribute, Hashable {
    public init() {}

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {}

    public func encode(_ encoder: PostboxEncoder) {}
}

extension Message {
    /// Whether only the notification service stored this message (the server's copy has not replaced it yet).
    public var isFromNotification: Bool { attributes.contains { $0 is NotificationMessageAttribute } }
}
