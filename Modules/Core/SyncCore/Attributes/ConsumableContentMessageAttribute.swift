public import Postbox
public import PostboxCoding

/// Whether a voice note or round video was listened to or watched (Telegram-iOS `ConsumableContentMessageAttribute`;
/// the message's `media_unread`, cleared by `messages.readMessageContents` and `updateReadMessagesContents`).
/// `consumed` is false while the recipient has not played it — on the sender's copy too, which shows that the other
/// side has not listened yet.
public struct ConsumableContentMessageAttribute: MessageAttribute, Hashable {
    public var consumed: Bool

    public init(consumed: Bool) {
        self.consumed = consumed
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        consumed = try decoder.decodeInt32(forKey: "c") != 0
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt32(consumed ? 1 : 0, forKey: "c")
    }
}

extension Message {
    /// A voice note or round video not played yet by its recipient (`ConsumableContentMessageAttribute`).
    public var isMediaUnread: Bool {
        attributes.contains { ($0 as? ConsumableContentMessageAttribute)?.consumed == false }
    }
}
