public import Postbox
public import PostboxCoding

/// Whether this account is in a channel or supergroup (Telegram-iOS `TelegramChannelParticipationStatus`).
public enum TelegramChannelParticipationStatus: Int32, Hashable, Sendable {
    case member = 0
    case left = 1
    /// Banned from reading it (`channelForbidden`).
    case kicked = 2
}

/// What a broadcast channel's posts show (Telegram-iOS `TelegramChannelBroadcastFlags`).
public struct TelegramChannelBroadcastFlags: OptionSet, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Posts carry their author's name (`signatures`; the message's `post_author`).
    public static let messagesShouldHaveSignatures = Self(rawValue: 1 << 0)
    /// A discussion supergroup is linked (`has_link`).
    public static let hasDiscussionGroup = Self(rawValue: 1 << 1)
}

/// How a supergroup is run (Telegram-iOS `TelegramChannelGroupFlags`).
public struct TelegramChannelGroupFlags: OptionSet, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Members may send one message per slow-mode interval (`slowmode_enabled`).
    public static let slowModeEnabled = Self(rawValue: 1 << 0)
}

/// A broadcast channel or a supergroup (Telegram-iOS `TelegramChannelInfo`; core.telegram.org "Channels,
/// supergroups, gigagroups and basic groups": both are `channel` constructors, told apart by `broadcast` and
/// `megagroup`).
public enum TelegramChannelInfo: Hashable, Sendable {
    case broadcast(TelegramChannelBroadcastFlags)
    /// A supergroup; `slowModeTimeout` is the interval in seconds, known only from the full channel
    /// (`channelFull.slowmode_seconds`), `nil` until then.
    case group(TelegramChannelGroupFlags, slowModeTimeout: Int32?)

    public var isBroadcast: Bool {
        if case .broadcast = self { return true }
        return false
    }
}

/// Everything else a channel's constructor says about it (Telegram-iOS `TelegramChannelFlags`).
public struct TelegramChannelFlags: OptionSet, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let isVerified = Self(rawValue: 1 << 0)
    public static let isCreator = Self(rawValue: 1 << 1)
    public static let isScam = Self(rawValue: 1 << 2)
    public static let hasGeo = Self(rawValue: 1 << 3)
    public static let isFake = Self(rawValue: 1 << 6)
    public static let isGigagroup = Self(rawValue: 1 << 7)
    public static let copyProtectionEnabled = Self(rawValue: 1 << 8)
    public static let joinToSend = Self(rawValue: 1 << 9)
    public static let requestToJoin = Self(rawValue: 1 << 10)
    public static let isForum = Self(rawValue: 1 << 11)
}

/// A broadcast channel or supergroup (Telegram-iOS `TelegramCore/Sources/SyncCore/SyncCore_TelegramChannel.swift`).
/// Its messages have their own id sequence in the cloud namespace, and its updates their own pts (`ChannelState`).
public struct TelegramChannel: Peer, Hashable {
    public var id: PeerId
    /// Needed for every call about the channel (`inputChannel`); `genericPublic` when it came from a `min` channel.
    public var accessHash: TelegramPeerAccessHash?
    public var title: String
    public var username: String?
    public var photo: [TelegramMediaImageRepresentation]
    public var creationDate: Int32
    public var version: Int32
    public var participationStatus: TelegramChannelParticipationStatus
    public var info: TelegramChannelInfo
    public var flags: TelegramChannelFlags
    /// This account's rights when it is an administrator.
    public var adminRights: TelegramChatAdminRights?
    /// This account's restrictions.
    public var bannedRights: TelegramChatBannedRights?
    /// Every member's restrictions.
    public var defaultBannedRights: TelegramChatBannedRights?
    /// Members (or subscribers), when the constructor said.
    public var participantCount: Int32?

    public init(
        id: PeerId, accessHash: TelegramPeerAccessHash?, title: String, username: String? = nil,
        photo: [TelegramMediaImageRepresentation] = [], creationDate: Int32, version: Int32 = 0,
        participationStatus: TelegramChannelParticipationStatus = .member, info: TelegramChannelInfo,
        flags: TelegramChannelFlags = [], adminRights: TelegramChatAdminRights? = nil,
        bannedRights: TelegramChatBannedRights? = nil, defaultBannedRights: TelegramChatBannedRights? = nil,
        participantCount: Int32? = nil
    ) {
        self.id = id
        self.accessHash = accessHash
        self.title = title
        self.username = username
        self.photo = photo
        self.creationDate = creationDate
        self.version = version
        self.participationStatus = participationStatus
        self.info = info
        self.flags = flags
        self.adminRights = adminRights
        self.bannedRights = bannedRights
        self.defaultBannedRights = defaultBannedRights
        self.participantCount = participantCount
    }

    public var indexName: String? {
        let words = [title, username ?? ""].filter { !$0.isEmpty }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    public func isEqual(_ other: Peer) -> Bool { (other as? TelegramChannel) == self }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        id = PeerId(try decoder.decodeInt64(forKey: "i"))
        if let hash = decoder.decodeOptionalInt64ForKey("ah") {
            accessHash = decoder.decodeBoolForKey("ahp", orElse: true) ? .personal(hash) : .genericPublic(hash)
        } else {
            accessHash = nil
        }
        title = try decoder.decodeString(forKey: "t")
        username = decoder.decodeOptionalStringForKey("un")
        photo = try decoder.decodeOptionalCodable([TelegramMediaImageRepresentation].self, forKey: "ph") ?? []
        creationDate = decoder.decodeInt32ForKey("d", orElse: 0)
        version = decoder.decodeInt32ForKey("v", orElse: 0)
        participationStatus =
            TelegramChannelParticipationStatus(rawValue: decoder.decodeInt32ForKey("ps", orElse: 0)) ?? .left
        let infoFlags = decoder.decodeInt32ForKey("i.f", orElse: 0)
        if decoder.decodeInt32ForKey("i.t", orElse: 0) == 0 {
            info = .broadcast(TelegramChannelBroadcastFlags(rawValue: infoFlags))
        } else {
            info = .group(
                TelegramChannelGroupFlags(rawValue: infoFlags), slowModeTimeout: decoder.decodeOptionalInt32ForKey("sm")
            )
        }
        flags = TelegramChannelFlags(rawValue: decoder.decodeInt32ForKey("fl", orElse: 0))
        adminRights = decoder.decodeOptionalInt32ForKey("ar").map {
            TelegramChatAdminRights(rights: TelegramChatAdminRightsFlags(rawValue: $0))
        }
        bannedRights = decoder.decodeOptionalInt32ForKey("br").map {
            TelegramChatBannedRights(
                flags: TelegramChatBannedRightsFlags(rawValue: $0),
                untilDate: decoder.decodeInt32ForKey("bru", orElse: 0))
        }
        defaultBannedRights = decoder.decodeOptionalInt32ForKey("dbr").map {
            TelegramChatBannedRights(
                flags: TelegramChatBannedRightsFlags(rawValue: $0),
                untilDate: decoder.decodeInt32ForKey("dbru", orElse: 0))
        }
        participantCount = decoder.decodeOptionalInt32ForKey("pc")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt64(id.toInt64(), forKey: "i")
        if let accessHash {
            encoder.encodeInt64(accessHash.value, forKey: "ah")
            if case .genericPublic = accessHash { encoder.encodeBool(false, forKey: "ahp") }
        }
        encoder.encodeString(title, forKey: "t")
        if let username { encoder.encodeString(username, forKey: "un") }
        if !photo.isEmpty { encoder.encodeCodable(photo, forKey: "ph") }
        encoder.encodeInt32(creationDate, forKey: "d")
        encoder.encodeInt32(version, forKey: "v")
        encoder.encodeInt32(participationStatus.rawValue, forKey: "ps")
        switch info {
        case .broadcast(let flags):
            encoder.encodeInt32(0, forKey: "i.t")
            encoder.encodeInt32(flags.rawValue, forKey: "i.f")
        case .group(let flags, let slowModeTimeout):
            encoder.encodeInt32(1, forKey: "i.t")
            encoder.encodeInt32(flags.rawValue, forKey: "i.f")
            if let slowModeTimeout { encoder.encodeInt32(slowModeTimeout, forKey: "sm") }
        }
        encoder.encodeInt32(flags.rawValue, forKey: "fl")
        if let adminRights { encoder.encodeInt32(adminRights.rights.rawValue, forKey: "ar") }
        if let bannedRights {
            encoder.encodeInt32(bannedRights.flags.rawValue, forKey: "br")
            encoder.encodeInt32(bannedRights.untilDate, forKey: "bru")
        }
        if let defaultBannedRights {
            encoder.encodeInt32(defaultBannedRights.flags.rawValue, forKey: "dbr")
            encoder.encodeInt32(defaultBannedRights.untilDate, forKey: "dbru")
        }
        if let participantCount { encoder.encodeInt32(participantCount, forKey: "pc") }
    }
}
