/// A basic group (core.telegram.org "Channels, supergroups, gigagroups and basic groups": up to 200 members,
/// every member's own message box).
public struct ChatRecord: Sendable, Equatable {
    public var id: Int64
    public var title: String
    public var creator: Int64
    public var date: Int32
    public var version: Int32
    public var members: [ChatMemberRecord]
    /// Serialized `ChatBannedRights` every member but the creator has (migration 12); `nil`: none.
    public var defaultBannedRights: [UInt8]?
    /// The supergroup it became (`messages.migrateChat`; migration 14): it is read-only from then on.
    public var migratedTo: Int64?
    /// Its photo, a serialized `Photo` (`messages.editChatPhoto`; migration 24); `nil`: none.
    public var photo: [UInt8]?

    public init(
        id: Int64, title: String, creator: Int64, date: Int32, version: Int32 = 1, members: [ChatMemberRecord] = [],
        defaultBannedRights: [UInt8]? = nil, migratedTo: Int64? = nil, photo: [UInt8]? = nil
    ) {
        self.id = id
        self.title = title
        self.creator = creator
        self.date = date
        self.version = version
        self.members = members
        self.defaultBannedRights = defaultBannedRights
        self.migratedTo = migratedTo
        self.photo = photo
    }
}

/// One member of a basic group.
public struct ChatMemberRecord: Sendable, Equatable {
    public var userId: Int64
    public var inviter: Int64
    public var date: Int32

    public init(userId: Int64, inviter: Int64, date: Int32) {
        self.userId = userId
        self.inviter = inviter
        self.date = date
    }
}
