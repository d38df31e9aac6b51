/// What an administrator of a group or channel may do (Telegram-iOS `TelegramChatAdminRights`), each flag at the bit
/// of the API's `chatAdminRights` (core.telegram.org "Channels, supergroups, gigagroups and basic groups", admins).
public struct TelegramChatAdminRightsFlags: OptionSet, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let canChangeInfo = Self(rawValue: 1 << 0)
    public static let canPostMessages = Self(rawValue: 1 << 1)
    public static let canEditMessages = Self(rawValue: 1 << 2)
    public static let canDeleteMessages = Self(rawValue: 1 << 3)
    public static let canBanUsers = Self(rawValue: 1 << 4)
    public static let canInviteUsers = Self(rawValue: 1 << 5)
    public static let canPinMessages = Self(rawValue: 1 << 7)
    public static let canAddAdmins = Self(rawValue: 1 << 9)
    public static let canBeAnonymous = Self(rawValue: 1 << 10)
    public static let canManageCalls = Self(rawValue: 1 << 11)
    public static let canManageTopics = Self(rawValue: 1 << 13)
}

/// An administrator's rights in a group or channel.
/// (Stored inside its peer's encoding, `TelegramChannel`.)
public struct TelegramChatAdminRights: Hashable, Sendable {
    public var rights: TelegramChatAdminRightsFlags

    public init(rights: TelegramChatAdminRightsFlags) {
        self.rights = rights
    }
}

/// What a member of a group or channel may not do (Telegram-iOS `TelegramChatBannedRightsFlags`), each flag at the
/// bit of the API's `chatBannedRights`.
public struct TelegramChatBannedRightsFlags: OptionSet, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let banReadMessages = Self(rawValue: 1 << 0)
    public static let banSendMessages = Self(rawValue: 1 << 1)
    public static let banSendMedia = Self(rawValue: 1 << 2)
    public static let banSendStickers = Self(rawValue: 1 << 3)
    public static let banSendGifs = Self(rawValue: 1 << 4)
    public static let banSendGames = Self(rawValue: 1 << 5)
    public static let banSendInline = Self(rawValue: 1 << 6)
    public static let banEmbedLinks = Self(rawValue: 1 << 7)
    public static let banSendPolls = Self(rawValue: 1 << 8)
    public static let banChangeInfo = Self(rawValue: 1 << 10)
    public static let banAddMembers = Self(rawValue: 1 << 15)
    public static let banPinMessages = Self(rawValue: 1 << 17)
    public static let banManageTopics = Self(rawValue: 1 << 18)
    public static let banSendPhotos = Self(rawValue: 1 << 19)
    public static let banSendVideos = Self(rawValue: 1 << 20)
    public static let banSendInstantVideos = Self(rawValue: 1 << 21)
    public static let banSendMusic = Self(rawValue: 1 << 22)
    public static let banSendVoice = Self(rawValue: 1 << 23)
    public static let banSendFiles = Self(rawValue: 1 << 24)
    public static let banSendText = Self(rawValue: 1 << 25)
}

/// Restrictions on a member (or, as default rights, on every member) until a date (`Int32.max`: for ever). (Stored
/// inside its peer's encoding, `TelegramChannel`.)
public struct TelegramChatBannedRights: Hashable, Sendable {
    public var flags: TelegramChatBannedRightsFlags
    public var untilDate: Int32

    public init(flags: TelegramChatBannedRightsFlags, untilDate: Int32) {
        self.flags = flags
        self.untilDate = untilDate
    }
}
