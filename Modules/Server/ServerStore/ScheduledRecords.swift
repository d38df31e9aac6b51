/// One account's message waiting for its date (core.telegram.org "Scheduled messages"; migration 20).
public struct ScheduledMessageRecord: Sendable, Equatable {
    /// Which chat: a user, a basic group or a channel.
    public enum PeerKind: Int64, Sendable {
        case user = 0
        case chat = 1
        case channel = 2
    }

    public var owner: Int64
    /// Its id among the owner's scheduled messages (their own id space, as Telegram numbers them).
    public var id: Int64
    public var peerKind: PeerKind
    public var peerId: Int64
    /// The serialized `InputPeer` it was sent to, sent to again when it is due.
    public var inputPeer: [UInt8]
    /// When it is to be sent.
    public var date: Int32
    public var text: String
    /// The serialized `Vector<MessageEntity>`, when there are entities.
    public var entities: [UInt8]?
    /// The serialized `MessageMedia`, when it has media.
    public var media: [UInt8]?
    public var mediaKind: Int64
    /// The message it replies to, by the owner's id for it.
    public var replyTo: Int64?
    public var silent: Bool
    public var randomId: Int64

    public init(
        owner: Int64, id: Int64, peerKind: PeerKind, peerId: Int64, inputPeer: [UInt8], date: Int32, text: String,
        entities: [UInt8]? = nil, media: [UInt8]? = nil, mediaKind: Int64 = 0, replyTo: Int64? = nil,
        silent: Bool = false, randomId: Int64
    ) {
        self.owner = owner
        self.id = id
        self.peerKind = peerKind
        self.peerId = peerId
        self.inputPeer = inputPeer
        self.date = date
        self.text = text
        self.entities = entities
        self.media = media
        self.mediaKind = mediaKind
        self.replyTo = replyTo
        self.silent = silent
        self.randomId = randomId
    }
}
