public import Postbox
public import PostboxCoding

/// The message this one answers (Telegram-iOS `ReplyMessageAttribute`).
public struct ReplyMessageAttribute: MessageAttribute, Hashable {
    public var messageId: MessageId
    /// The thread's top message, for replies inside a thread.
    public var threadMessageId: MessageId?
    /// The quoted part of the replied message, when the reply quotes.
    public var quoteText: String?

    public init(messageId: MessageId, threadMessageId: MessageId? = nil, quoteText: String? = nil) {
        self.messageId = messageId
        self.threadMessageId = threadMessageId
        self.quoteText = quoteText
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        messageId = MessageId(
            peerId: PeerId(try decoder.decodeInt64(forKey: "p")), namespace: try decoder.decodeInt32(forKey: "n"),
            id: try decoder.decodeInt32(forKey: "i"))
        if let thread = decoder.decodeOptionalInt32ForKey("t") {
            threadMessageId = MessageId(peerId: messageId.peerId, namespace: messageId.namespace, id: thread)
        } else {
            threadMessageId = nil
        }
        quoteText = decoder.decodeOptionalStringForKey("q")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt64(messageId.peerId.toInt64(), forKey: "p")
        encoder.encodeInt32(messageId.namespace, forKey: "n")
        encoder.encodeInt32(messageId.id, forKey: "i")
        if let threadMessageId { encoder.encodeInt32(threadMessageId.id, forKey: "t") }
        if let quoteText { encoder.encodeString(quoteText, forKey: "q") }
    }
}

/// Bookkeeping of a message sent from this device (Telegram-iOS `OutgoingMessageInfoAttribute`): the `random_id`
/// it was sent with, its send flags, and whether the server acknowledged it.
public struct OutgoingMessageInfoAttribute: MessageAttribute, Hashable {
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let muted = Flags(rawValue: 1 << 0)
        public static let suggestPost = Flags(rawValue: 1 << 1)
    }

    public var uniqueId: Int64
    public var flags: Flags
    public var acknowledged: Bool
    public var correlationId: Int64?

    public init(uniqueId: Int64, flags: Flags = [], acknowledged: Bool = false, correlationId: Int64? = nil) {
        self.uniqueId = uniqueId
        self.flags = flags
        self.acknowledged = acknowledged
        self.correlationId = correlationId
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        uniqueId = try decoder.decodeInt64(forKey: "u")
        flags = Flags(rawValue: decoder.decodeInt32ForKey("f", orElse: 0))
        acknowledged = decoder.decodeBoolForKey("ack", orElse: false)
        correlationId = decoder.decodeOptionalInt64ForKey("c")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt64(uniqueId, forKey: "u")
        encoder.encodeInt32(flags.rawValue, forKey: "f")
        encoder.encodeBool(acknowledged, forKey: "ack")
        if let correlationId { encoder.encodeInt64(correlationId, forKey: "c") }
    }
}

/// When a message was last edited, and whether the edit is hidden (Telegram-iOS `EditedMessageAttribute`).
public struct EditedMessageAttribute: MessageAttribute, Hashable {
    public var date: Int32
    public var isHidden: Bool

    public init(date: Int32, isHidden: Bool) {
        self.date = date
        self.isHidden = isHidden
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        date = try decoder.decodeInt32(forKey: "d")
        isHidden = decoder.decodeBoolForKey("h", orElse: false)
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt32(date, forKey: "d")
        encoder.encodeBool(isHidden, forKey: "h")
    }
}

/// Where a forwarded message came from (Telegram-iOS `ForwardSourceInfoAttribute` together with the message's
/// `StoreMessageForwardInfo`, which our Postbox keeps as this attribute): the original author or their name when
/// hidden, the original date, and the source chat's message for channel posts and saved messages.
public struct ForwardSourceInfoAttribute: MessageAttribute, Hashable {
    public var authorId: PeerId?
    public var authorName: String?
    public var date: Int32
    public var sourceMessageId: MessageId?
    public var authorSignature: String?

    public init(
        authorId: PeerId?, authorName: String? = nil, date: Int32, sourceMessageId: MessageId? = nil,
        authorSignature: String? = nil
    ) {
        self.authorId = authorId
        self.authorName = authorName
        self.date = date
        self.sourceMessageId = sourceMessageId
        self.authorSignature = authorSignature
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        authorId = decoder.decodeOptionalInt64ForKey("a").map(PeerId.init)
        authorName = decoder.decodeOptionalStringForKey("an")
        date = try decoder.decodeInt32(forKey: "d")
        if let peer = decoder.decodeOptionalInt64ForKey("sp"), let id = decoder.decodeOptionalInt32ForKey("si") {
            sourceMessageId = MessageId(
                peerId: PeerId(peer), namespace: decoder.decodeInt32ForKey("sn", orElse: 0), id: id)
        } else {
            sourceMessageId = nil
        }
        authorSignature = decoder.decodeOptionalStringForKey("as")
    }

    public func encode(_ encoder: PostboxEncoder) {
        if let authorId { encoder.encodeInt64(authorId.toInt64(), forKey: "a") }
        if let authorName { encoder.encodeString(authorName, forKey: "an") }
        encoder.encodeInt32(date, forKey: "d")
        if let sourceMessageId {
            encoder.encodeInt64(sourceMessageId.peerId.toInt64(), forKey: "sp")
            encoder.encodeInt32(sourceMessageId.namespace, forKey: "sn")
            encoder.encodeInt32(sourceMessageId.id, forKey: "si")
        }
        if let authorSignature { encoder.encodeString(authorSignature, forKey: "as") }
    }
}

/// An outgoing forward not yet sent: the stored message it copies (Telegram-iOS keeps this as the `messageId` of its
/// `ForwardSourceInfoAttribute`); the pending-message manager sends it with `messages.forwardMessages` and the server's
/// message replaces it without this attribute.
public struct PendingForwardAttribute: MessageAttribute, Hashable {
    public var sourceMessageId: MessageId

    public init(sourceMessageId: MessageId) {
        self.sourceMessageId = sourceMessageId
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        sourceMessageId = MessageId(
            peerId: PeerId(try decoder.decodeInt64(forKey: "p")), namespace: try decoder.decodeInt32(forKey: "n"),
            id: try decoder.decodeInt32(forKey: "i"))
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt64(sourceMessageId.peerId.toInt64(), forKey: "p")
        encoder.encodeInt32(sourceMessageId.namespace, forKey: "n")
        encoder.encodeInt32(sourceMessageId.id, forKey: "i")
    }
}
