/// A supergroup or broadcast channel (core.telegram.org "Channels, supergroups, gigagroups and basic groups"): its
/// messages are stored once, numbered 1, 2, … in the channel's own sequence, and its changes move its own pts.
public struct ChannelRecord: Sendable, Equatable {
    public var id: Int64
    public var title: String
    public var about: String
    /// The public username; `nil` for a private channel.
    public var username: String?
    public var creator: Int64
    public var date: Int32
    /// A broadcast channel; otherwise a supergroup (`megagroup`).
    public var broadcast: Bool
    /// The channel's pts: the last update of its log.
    public var pts: Int64
    /// The id the next message gets.
    public var nextMessageId: Int64
    /// Deleted by its creator (`channels.deleteChannel`): nothing more is served.
    public var deleted: Bool
    /// A supergroup's slow mode: seconds between one member's posts, 0 when off (migration 12).
    public var slowmodeSeconds: Int32
    /// A broadcast channel signs its posts with their author's name (migration 12).
    public var signatures: Bool
    /// Serialized `ChatBannedRights` every member of a supergroup has by default (migration 12); `nil`: none.
    public var defaultBannedRights: [UInt8]?
    /// The serialized `Photo` the channel shows (migration 13); `nil`: none.
    public var photo: [UInt8]?

    public init(
        id: Int64, title: String, about: String = "", username: String? = nil, creator: Int64, date: Int32,
        broadcast: Bool, pts: Int64 = 0, nextMessageId: Int64 = 1, deleted: Bool = false, slowmodeSeconds: Int32 = 0,
        signatures: Bool = false, defaultBannedRights: [UInt8]? = nil, photo: [UInt8]? = nil
    ) {
        self.id = id
        self.title = title
        self.about = about
        self.username = username
        self.creator = creator
        self.date = date
        self.broadcast = broadcast
        self.pts = pts
        self.nextMessageId = nextMessageId
        self.deleted = deleted
        self.slowmodeSeconds = slowmodeSeconds
        self.signatures = signatures
        self.defaultBannedRights = defaultBannedRights
        self.photo = photo
    }
}

/// One account's relation to a channel: a member (plain, admin or the creator), someone who left, or someone
/// banned from it; with their read mark.
public struct ChannelMemberRecord: Sendable, Equatable {
    public enum Status: Int64, Sendable {
        case member = 0
        case left = 1
        /// Removed and not allowed back (`channelParticipantBanned` with `view_messages`).
        case banned = 2
    }

    public var channelId: Int64
    public var userId: Int64
    public var status: Status
    public var inviter: Int64
    public var date: Int32
    /// Serialized `ChatAdminRights` of an admin.
    public var adminRights: [UInt8]?
    public var promotedBy: Int64?
    public var rank: String?
    /// Serialized `ChatBannedRights` of a restricted or banned member.
    public var bannedRights: [UInt8]?
    public var kickedBy: Int64?
    /// The newest message this account has read.
    public var readInboxMax: Int64

    public init(
        channelId: Int64, userId: Int64, status: Status = .member, inviter: Int64, date: Int32,
        adminRights: [UInt8]? = nil, promotedBy: Int64? = nil, rank: String? = nil, bannedRights: [UInt8]? = nil,
        kickedBy: Int64? = nil, readInboxMax: Int64 = 0
    ) {
        self.channelId = channelId
        self.userId = userId
        self.status = status
        self.inviter = inviter
        self.date = date
        self.adminRights = adminRights
        self.promotedBy = promotedBy
        self.rank = rank
        self.bannedRights = bannedRights
        self.kickedBy = kickedBy
        self.readInboxMax = readInboxMax
    }
}

/// One message of a channel, stored once for every member.
public struct ChannelMessageRecord: Sendable, Equatable {
    public var channelId: Int64
    public var id: Int64
    public var fromId: Int64
    /// A broadcast channel's post: shown as the channel's, without its author.
    public var post: Bool
    public var date: Int32
    public var editDate: Int32?
    public var text: String
    /// Serialized `Vector<MessageEntity>`.
    public var entities: [UInt8]?
    /// Serialized `MessageMedia`.
    public var media: [UInt8]?
    public var mediaKind: Int64
    public var replyTo: Int64?
    /// Serialized `MessageFwdHeader`.
    public var forward: [UInt8]?
    public var groupedId: Int64?
    public var silent: Bool
    /// Serialized `MessageAction`: a service message.
    public var action: [UInt8]?
    /// How many accounts viewed it (`messages.getMessagesViews` with `increment`).
    public var views: Int64
    /// Pinned in the channel (`messages.updatePinnedMessage`; migration 10).
    public var pinned: Bool
    /// The signing admin's name on a post of a channel with signatures (migration 12).
    public var postAuthor: String?

    public init(
        channelId: Int64, id: Int64, fromId: Int64, post: Bool, date: Int32, editDate: Int32? = nil, text: String,
        entities: [UInt8]? = nil, media: [UInt8]? = nil, mediaKind: Int64 = 0, replyTo: Int64? = nil,
        forward: [UInt8]? = nil, groupedId: Int64? = nil, silent: Bool = false, action: [UInt8]? = nil,
        views: Int64 = 0, pinned: Bool = false, postAuthor: String? = nil
    ) {
        self.channelId = channelId
        self.id = id
        self.fromId = fromId
        self.post = post
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
        self.views = views
        self.pinned = pinned
        self.postAuthor = postAuthor
    }
}

/// A member's channel dialog: the membership, the channel's newest message and how many are unread.
public struct ChannelDialogRecord: Sendable, Equatable {
    public var channel: ChannelRecord
    public var member: ChannelMemberRecord
    public var topMessage: Int64
    public var topDate: Int32
    public var unreadCount: Int32
    public var pinned: Int64

    public init(
        channel: ChannelRecord, member: ChannelMemberRecord, topMessage: Int64, topDate: Int32, unreadCount: Int32,
        pinned: Int64
    ) {
        self.channel = channel
        self.member = member
        self.topMessage = topMessage
        self.topDate = topDate
        self.unreadCount = unreadCount
        self.pinned = pinned
    }
}

/// Where a page of channel dialogs starts (newest first): from the top, below a date, at or below a date, or after one
/// channel dialog in the order (date, then channel id, both descending).
public enum ChannelDialogCursor: Sendable, Equatable {
    case start
    case olderThan(Int32)
    case notNewerThan(Int32)
    case after(date: Int32, channelId: Int64)
}
