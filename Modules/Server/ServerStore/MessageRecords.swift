/// Whom a message box entry talks to: a user (private chat) or a basic group.
public struct PeerRef: Sendable, Hashable {
    public enum Kind: Int64, Sendable {
        case user = 0
        case chat = 1
    }

    public var kind: Kind
    public var id: Int64

    public init(_ kind: Kind, _ id: Int64) {
        self.kind = kind
        self.id = id
    }

    public static func user(_ id: Int64) -> PeerRef { PeerRef(.user, id) }
    public static func chat(_ id: Int64) -> PeerRef { PeerRef(.chat, id) }
}

/// One message in one account's message box. As on Telegram, private chats and basic groups share a message id
/// sequence per account: a message between two people is stored twice, once in each box under each box's own id,
/// and the copies share `globalId`.
public struct MessageRecord: Sendable, Equatable {
    public var owner: Int64
    public var id: Int64
    public var globalId: Int64
    public var peer: PeerRef
    public var fromId: Int64
    public var outgoing: Bool
    public var date: Int32
    public var editDate: Int32?
    public var text: String
    /// Serialized `Vector<MessageEntity>`.
    public var entities: [UInt8]?
    /// Serialized `MessageMedia`.
    public var media: [UInt8]?
    /// What `messages.search` filters see: 0 none, then `MediaKind` raw values.
    public var mediaKind: Int64
    /// The id, in this box, of the message this one replies to.
    public var replyTo: Int64?
    /// Serialized `MessageFwdHeader`.
    public var forward: [UInt8]?
    public var groupedId: Int64?
    public var silent: Bool
    /// Serialized `MessageAction`: a service message.
    public var action: [UInt8]?
    /// Pinned in this box's conversation (`messages.updatePinnedMessage`; migration 10).
    public var pinned: Bool
    /// A voice note its recipient has not listened to yet (`media_unread`; `messages.readMessageContents` clears it on
    /// every copy; migration 15).
    public var mediaUnread: Bool

    public init(
        owner: Int64, id: Int64, globalId: Int64, peer: PeerRef, fromId: Int64, outgoing: Bool, date: Int32,
        editDate: Int32? = nil, text: String, entities: [UInt8]? = nil, media: [UInt8]? = nil, mediaKind: Int64 = 0,
        replyTo: Int64? = nil, forward: [UInt8]? = nil, groupedId: Int64? = nil, silent: Bool = false,
        action: [UInt8]? = nil, pinned: Bool = false, mediaUnread: Bool = false
    ) {
        self.owner = owner
        self.id = id
        self.globalId = globalId
        self.peer = peer
        self.fromId = fromId
        self.outgoing = outgoing
        self.date = date
        self.editDate = editDate
        self.text = text
        self.entities = entities
        self.media = media
        self.mediaKind = mediaKind
        self.replyTo = replyTo
        self.forward = forward
        self.groupedId = groupedId
        self.silent = silent
        self.action = action
        self.pinned = pinned
        self.mediaUnread = mediaUnread
    }
}

/// One conversation in an account's dialog list.
public struct DialogRecord: Sendable, Equatable {
    public var owner: Int64
    public var peer: PeerRef
    public var topMessage: Int64
    public var readInboxMax: Int64
    public var readOutboxMax: Int64
    /// 0 when not pinned; pinned dialogs come first, highest first.
    public var pinned: Int64
    /// Incoming messages after `readInboxMax`.
    public var unreadCount: Int32
}

/// An account's update state (core.telegram.org "Working with updates").
public struct UpdateStateRecord: Sendable, Equatable {
    public var pts: Int64
    public var qts: Int64
    public var seq: Int64
    public var date: Int32
}

/// One stored pts update: the serialized `Update` and how many pts it spans.
public struct UpdateRecord: Sendable, Equatable {
    public var pts: Int64
    public var ptsCount: Int64
    public var date: Int32
    public var body: [UInt8]
}

/// Where `history` starts and how far it goes: `messages.getHistory`'s parameters (core.telegram.org
/// "Pagination in the API").
public struct HistoryQuery: Sendable, Equatable {
    public var offsetId: Int64
    public var offsetDate: Int32
    public var addOffset: Int
    public var limit: Int
    public var maxId: Int64
    public var minId: Int64

    public init(
        offsetId: Int64 = 0, offsetDate: Int32 = 0, addOffset: Int = 0, limit: Int, maxId: Int64 = 0, minId: Int64 = 0
    ) {
        self.offsetId = offsetId
        self.offsetDate = offsetDate
        self.addOffset = addOffset
        self.limit = limit
        self.maxId = maxId
        self.minId = minId
    }
}
