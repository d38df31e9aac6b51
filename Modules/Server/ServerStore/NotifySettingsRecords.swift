/// One account's notify settings for one chat or one kind of chat (core.telegram.org constructor
/// `peerNotifySettings`, methods `account.updateNotifySettings` / `account.getNotifySettings`; migration 21).
public struct NotifySettingsRecord: Sendable, Equatable {
    /// What the settings are for: one chat (`user`, `chat`, `channel`, with its id) or every chat of a kind
    /// (`inputNotifyUsers`, `inputNotifyChats`, `inputNotifyBroadcasts`, with id 0).
    public enum PeerKind: Int64, Sendable, CaseIterable {
        case user = 0
        case chat = 1
        case channel = 2
        case allUsers = 3
        case allChats = 4
        case allBroadcasts = 5
    }

    public var owner: Int64
    public var peerKind: PeerKind
    public var peerId: Int64
    /// Until when (unix time) the chat is muted; `Int32.max` is "forever", 0 or a past date unmuted.
    public var muteUntil: Int32?
    public var silent: Bool?
    public var showPreviews: Bool?
    /// When these were last set.
    public var date: Int32

    public init(
        owner: Int64, peerKind: PeerKind, peerId: Int64, muteUntil: Int32? = nil, silent: Bool? = nil,
        showPreviews: Bool? = nil, date: Int32
    ) {
        self.owner = owner
        self.peerKind = peerKind
        self.peerId = peerId
        self.muteUntil = muteUntil
        self.silent = silent
        self.showPreviews = showPreviews
        self.date = date
    }

    /// Whether no field is set: the same as no row.
    public var isEmpty: Bool { muteUntil == nil && silent == nil && showPreviews == nil }
}
