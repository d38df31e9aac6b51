/// Which kind of conversation an invite link opens: a basic group or a channel (supergroup or broadcast).
public enum InvitePeerKind: Int64, Sendable {
    case chat = 1
    case channel = 2
}

/// An invite link of a basic group or channel (core.telegram.org constructor `chatInviteExported`): its hash is
/// random and unguessable; `usage` counts who joined through it.
public struct ChatInviteRecord: Sendable, Equatable {
    public var hash: String
    public var peerKind: InvitePeerKind
    public var peerId: Int64
    /// The admin who made it (and whose it stays).
    public var adminId: Int64
    public var date: Int32
    public var expireDate: Int32?
    public var usageLimit: Int32?
    public var usage: Int32
    /// Joining asks an admin first (`hideChatJoinRequest`).
    public var requestNeeded: Bool
    public var title: String?
    public var revoked: Bool
    /// The admin's primary link (`legacy_revoke_permanent` replaces it).
    public var permanent: Bool

    public init(
        hash: String, peerKind: InvitePeerKind, peerId: Int64, adminId: Int64, date: Int32, expireDate: Int32? = nil,
        usageLimit: Int32? = nil, usage: Int32 = 0, requestNeeded: Bool = false, title: String? = nil,
        revoked: Bool = false, permanent: Bool = false
    ) {
        self.hash = hash
        self.peerKind = peerKind
        self.peerId = peerId
        self.adminId = adminId
        self.date = date
        self.expireDate = expireDate
        self.usageLimit = usageLimit
        self.usage = usage
        self.requestNeeded = requestNeeded
        self.title = title
        self.revoked = revoked
        self.permanent = permanent
    }
}

/// Someone who joined through a link, or asked to (`requested`) and waits for an admin.
public struct ChatInviteImporterRecord: Sendable, Equatable {
    public var peerKind: InvitePeerKind
    public var peerId: Int64
    public var userId: Int64
    public var hash: String
    public var date: Int32
    public var requested: Bool
    public var approvedBy: Int64?

    public init(
        peerKind: InvitePeerKind, peerId: Int64, userId: Int64, hash: String, date: Int32, requested: Bool,
        approvedBy: Int64? = nil
    ) {
        self.peerKind = peerKind
        self.peerId = peerId
        self.userId = userId
        self.hash = hash
        self.date = date
        self.requested = requested
        self.approvedBy = approvedBy
    }
}
