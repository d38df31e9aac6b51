/// How a new message is identified: fully, or by peer and namespace with the id allocated locally.
public enum StoreMessageId: Hashable, Sendable {
    case id(MessageId)
    case partial(PeerId, MessageId.Namespace)

    public var peerId: PeerId {
        switch self {
        case .id(let id): return id.peerId
        case .partial(let peerId, _): return peerId
        }
    }
}

/// The write-side form of a message (Telegram-iOS Postbox `StoreMessage`).
public struct StoreMessage: Sendable {
    public var id: StoreMessageId
    public var globallyUniqueId: Int64?
    public var groupingKey: Int64?
    public var threadId: Int64?
    public var timestamp: Int32
    public var flags: MessageFlags
    public var tags: MessageTags
    public var authorId: PeerId?
    public var text: String
    public var attributes: [MessageAttribute]
    public var media: [Media]

    public init(
        id: StoreMessageId, globallyUniqueId: Int64? = nil, groupingKey: Int64? = nil, threadId: Int64? = nil,
        timestamp: Int32, flags: MessageFlags = [], tags: MessageTags = [], authorId: PeerId?, text: String,
        attributes: [MessageAttribute] = [], media: [Media] = []
    ) {
        self.id = id
        self.globallyUniqueId = globallyUniqueId
        self.groupingKey = groupingKey
        self.threadId = threadId
        self.timestamp = timestamp
        self.flags = flags
        self.tags = tags
        self.authorId = authorId
        self.text = text
        self.attributes = attributes
        self.media = media
    }
}

/// A stored message as read back (Telegram-iOS Postbox `Message`), with its author peer resolved when stored.
public final class Message: Sendable {
    /// A process-independent number that stays the same when the message's id or timestamp changes.
    public let stableId: UInt32
    public let stableVersion: UInt32
    public let id: MessageId
    public let globallyUniqueId: Int64?
    public let groupingKey: Int64?
    public let threadId: Int64?
    public let timestamp: Int32
    public let flags: MessageFlags
    public let tags: MessageTags
    public let authorId: PeerId?
    public let author: Peer?
    public let text: String
    public let attributes: [MessageAttribute]
    public let media: [Media]

    public init(
        stableId: UInt32, stableVersion: UInt32, id: MessageId, globallyUniqueId: Int64?, groupingKey: Int64?,
        threadId: Int64?, timestamp: Int32, flags: MessageFlags, tags: MessageTags, authorId: PeerId?, author: Peer?,
        text: String, attributes: [MessageAttribute], media: [Media]
    ) {
        self.stableId = stableId
        self.stableVersion = stableVersion
        self.id = id
        self.globallyUniqueId = globallyUniqueId
        self.groupingKey = groupingKey
        self.threadId = threadId
        self.timestamp = timestamp
        self.flags = flags
        self.tags = tags
        self.authorId = authorId
        self.author = author
        self.text = text
        self.attributes = attributes
        self.media = media
    }

    /// The message's place in history.
    public var index: MessageIndex { MessageIndex(id: id, timestamp: timestamp) }

    /// The message as a write-side value (for `updateMessage`).
    public func toStoreMessage() -> StoreMessage {
        StoreMessage(
            id: .id(id), globallyUniqueId: globallyUniqueId, groupingKey: groupingKey, threadId: threadId,
            timestamp: timestamp, flags: flags, tags: tags, authorId: authorId, text: text, attributes: attributes,
            media: media)
    }
}
