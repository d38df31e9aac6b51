public import Postbox
public import SyncCore
public import TelegramApi

extension PeerId {
    /// The peer id of an API peer.
    public init(_ peer: Api.Peer) {
        switch peer {
        case .peerUser(let user): self = .user(user.userId)
        case .peerChat(let chat): self = .group(chat.chatId)
        case .peerChannel(let channel): self = .channel(channel.channelId)
        }
    }

    /// The peer as the API names it in an update (the inverse of `init(_:)`); `nil` for a namespace the API lacks.
    public var apiPeer: Api.Peer? {
        switch namespace {
        case Namespaces.Peer.cloudUser: return .peerUser(.init(userId: id.rawValue))
        case Namespaces.Peer.cloudGroup: return .peerChat(.init(chatId: id.rawValue))
        case Namespaces.Peer.cloudChannel: return .peerChannel(.init(channelId: id.rawValue))
        default: return nil
        }
    }
}

extension TelegramUser {
    /// A user from the API (Telegram-iOS `TelegramUser(user:)`). A `min` user carries only what a message needs:
    /// use `merged(previous:with:)` so the stored phone, access hash and photo are kept.
    public init(_ user: Api.User) {
        switch user {
        case .userEmpty(let empty):
            self.init(id: .user(empty.id), accessHash: nil, firstName: nil, lastName: nil, username: nil, phone: nil)
        case .user(let user):
            var flags: UserInfoFlags = []
            if user.verified { flags.insert(.isVerified) }
            if user.support { flags.insert(.isSupport) }
            if user.scam { flags.insert(.isScam) }
            if user.fake { flags.insert(.isFake) }
            if user.premium { flags.insert(.isPremium) }
            if user.bot { flags.insert(.isBot) }
            if user.deleted { flags.insert(.isDeleted) }
            if user.contact { flags.insert(.isContact) }
            if user.mutualContact { flags.insert(.isMutualContact) }
            let peerId = PeerId.user(user.id)
            let (photo, photoId) = peerPhotoRepresentations(user.photo, peerId: user.id)
            self.init(
                id: peerId,
                accessHash: user.accessHash.map { user.min ? .genericPublic($0) : .personal($0) },
                firstName: user.firstName, lastName: user.lastName, username: user.username, phone: user.phone,
                photo: photo, photoId: photoId, flags: flags)
        }
    }

    /// Whether the API user is a `min` constructor (partial: no phone, a message-scoped access hash).
    public static func isMin(_ user: Api.User) -> Bool {
        if case .user(let user) = user { return user.min }
        return false
    }

    /// A stored user updated from the API (Telegram-iOS `TelegramUser.merge`): a full user replaces it; a `min` user
    /// changes only names, username, flags and photo (when `apply_min_photo`), keeping phone and access hash.
    public static func merged(previous: TelegramUser?, with user: Api.User) -> TelegramUser {
        let incoming = TelegramUser(user)
        guard case .user(let apiUser) = user, apiUser.min, var result = previous else { return incoming }
        result.firstName = incoming.firstName
        result.lastName = incoming.lastName
        result.username = incoming.username
        result.flags = incoming.flags
        if apiUser.applyMinPhoto {
            result.photo = incoming.photo
            result.photoId = incoming.photoId
        }
        if result.accessHash == nil { result.accessHash = incoming.accessHash }
        return result
    }
}

/// The small and big sizes of a profile or chat photo, the small one carrying the stripped thumbnail.
func peerPhotoRepresentations(
    _ photo: Api.UserProfilePhoto?, peerId: Int64
) -> ([TelegramMediaImageRepresentation], Int64?) {
    guard case .userProfilePhoto(let photo)? = photo else { return ([], nil) }
    return (
        peerPhotoSizes(dcId: photo.dcId, peerId: peerId, photoId: photo.photoId, stripped: photo.strippedThumb),
        photo.photoId
    )
}

func peerPhotoSizes(
    dcId: Int32, peerId: Int64, photoId: Int64, stripped: [UInt8]?
) -> [TelegramMediaImageRepresentation] {
    [
        TelegramMediaImageRepresentation(
            dimensions: PixelDimensions(width: 160, height: 160),
            resource: .cloudPeerPhoto(datacenterId: dcId, peerId: peerId, photoId: photoId, big: false), type: "a",
            immediateThumbnailData: stripped),
        TelegramMediaImageRepresentation(
            dimensions: PixelDimensions(width: 640, height: 640),
            resource: .cloudPeerPhoto(datacenterId: dcId, peerId: peerId, photoId: photoId, big: true), type: "c"),
    ]
}

extension TelegramGroup {
    /// A basic group from the API (`chat`, `chatForbidden`); `nil` for channels and supergroups (`TelegramChannel`)
    /// and `chatEmpty`. A group that became a supergroup names it in `migratedTo`; the supergroup's side of the link
    /// (`channelFull.migrated_from_chat_id`) comes with the full channel, not yet fetched.
    public init?(_ chat: Api.Chat) {
        switch chat {
        case .chat(let chat):
            var photo: [TelegramMediaImageRepresentation] = []
            if case .chatPhoto(let chatPhoto) = chat.photo {
                photo = peerPhotoSizes(
                    dcId: chatPhoto.dcId, peerId: chat.id, photoId: chatPhoto.photoId, stripped: chatPhoto.strippedThumb
                )
            }
            var migratedTo: PeerId?
            if case .inputChannel(let channel)? = chat.migratedTo { migratedTo = .channel(channel.channelId) }
            self.init(
                id: .group(chat.id), title: chat.title, photo: photo, participantCount: chat.participantsCount,
                membership: chat.left ? .left : .member, isCreator: chat.creator, isDeactivated: chat.deactivated,
                migratedTo: migratedTo, creationDate: chat.date, version: chat.version)
        case .chatForbidden(let chat):
            self.init(
                id: .group(chat.id), title: chat.title, participantCount: 0, membership: .removed, creationDate: 0,
                version: 0)
        default:
            return nil
        }
    }
}

extension TelegramUserPresence {
    /// The stored form of a `UserStatus` (core.telegram.org constructors `userStatusOnline`, `userStatusOffline`, …;
    /// Telegram-iOS `TelegramUserPresence(apiStatus:)`).
    public init(apiStatus: Api.UserStatus) {
        switch apiStatus {
        case .userStatusEmpty: self.init(status: .none)
        case .userStatusOnline(let online): self.init(status: .present(until: online.expires))
        case .userStatusOffline(let offline): self.init(status: .offline(since: offline.wasOnline))
        case .userStatusRecently: self.init(status: .recently)
        case .userStatusLastWeek: self.init(status: .lastWeek)
        case .userStatusLastMonth: self.init(status: .lastMonth)
        }
    }
}
