/// Per-message tags that index shared media and other filtered histories (Telegram-iOS Postbox; values from
/// TelegramCore).
public struct MessageTags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let photoOrVideo = MessageTags(rawValue: 1 << 0)
    public static let file = MessageTags(rawValue: 1 << 1)
    public static let music = MessageTags(rawValue: 1 << 2)
    public static let webPage = MessageTags(rawValue: 1 << 3)
    public static let voiceOrInstantVideo = MessageTags(rawValue: 1 << 4)
    public static let unseenPersonalMessage = MessageTags(rawValue: 1 << 5)
    public static let liveLocation = MessageTags(rawValue: 1 << 6)
    public static let gif = MessageTags(rawValue: 1 << 7)
    public static let photo = MessageTags(rawValue: 1 << 8)
    public static let video = MessageTags(rawValue: 1 << 9)
    public static let pinned = MessageTags(rawValue: 1 << 10)
    public static let unseenReaction = MessageTags(rawValue: 1 << 11)
    public static let voice = MessageTags(rawValue: 1 << 12)
    public static let roundVideo = MessageTags(rawValue: 1 << 13)

    /// Each set bit as a single-bit tag, lowest first.
    public var singleTags: [MessageTags] {
        (0..<32).compactMap { bit in rawValue & (1 << bit) != 0 ? MessageTags(rawValue: 1 << bit) : nil }
    }
}

/// Message state flags stored with each message.
public struct MessageFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Not yet sent to the server.
    public static let unsent = MessageFlags(rawValue: 1 << 0)
    /// Sending failed.
    public static let failed = MessageFlags(rawValue: 1 << 1)
    /// Received from another user.
    public static let incoming = MessageFlags(rawValue: 1 << 2)
    /// Can be the chat list's top message.
    public static let topIndexable = MessageFlags(rawValue: 1 << 3)
    /// Being sent now.
    public static let sending = MessageFlags(rawValue: 1 << 4)
    /// Part of a media album.
    public static let canBeGroupedIntoFeed = MessageFlags(rawValue: 1 << 5)
    /// Stored from a notification before the main app synchronised.
    public static let wasScheduled = MessageFlags(rawValue: 1 << 6)
}

/// Where a hole is recorded: the whole history or one tag's filtered history (Telegram-iOS Postbox hole index).
public enum MessageHistoryHoleSpace: Hashable, Sendable {
    case everywhere
    case tag(MessageTags)

    var rawValue: UInt32 {
        switch self {
        case .everywhere: return 0
        case .tag(let tags): return tags.rawValue
        }
    }
}
