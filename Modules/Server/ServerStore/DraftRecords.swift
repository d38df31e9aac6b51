/// One account's draft in one chat (core.telegram.org constructor `draftMessage`; migration 19).
public struct DraftRecord: Sendable, Equatable {
    /// Which chat: a user, a basic group or a channel.
    public enum PeerKind: Int64, Sendable {
        case user = 0
        case chat = 1
        case channel = 2
    }

    public var owner: Int64
    public var peerKind: PeerKind
    public var peerId: Int64
    public var text: String
    /// The serialized `Vector<MessageEntity>`, when there are entities.
    public var entities: [UInt8]?
    /// The message it replies to, by the owner's id for it.
    public var replyTo: Int64?
    public var noWebpage: Bool
    public var date: Int32

    public init(
        owner: Int64, peerKind: PeerKind, peerId: Int64, text: String, entities: [UInt8]? = nil, replyTo: Int64? = nil,
        noWebpage: Bool = false, date: Int32
    ) {
        self.owner = owner
        self.peerKind = peerKind
        self.peerId = peerId
        self.text = text
        self.entities = entities
        self.replyTo = replyTo
        self.noWebpage = noWebpage
        self.date = date
    }
}
