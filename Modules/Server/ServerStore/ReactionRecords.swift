/// Which message a reaction is on: a private-chat or basic-group message by the global id its copies share
/// (`channelId` 0), or a channel message by its channel and id.
public struct ReactionTarget: Sendable, Hashable {
    public var channelId: Int64
    public var messageKey: Int64

    public init(channelId: Int64, messageKey: Int64) {
        self.channelId = channelId
        self.messageKey = messageKey
    }

    /// The message whose copies share `globalId` (private chats and basic groups).
    public static func shared(globalId: Int64) -> ReactionTarget { ReactionTarget(channelId: 0, messageKey: globalId) }

    /// Message `id` of channel `channelId`.
    public static func channel(_ channelId: Int64, id: Int64) -> ReactionTarget {
        ReactionTarget(channelId: channelId, messageKey: id)
    }
}

/// One account's reaction to one message (core.telegram.org constructor `messagePeerReaction`; migration 18).
public struct ReactionRecord: Sendable, Equatable {
    public var userId: Int64
    /// The standard emoji (`reactionEmoji`).
    public var emoticon: String
    /// The order the account chose its reactions in, from 0 (`reactionCount.chosen_order` for its own).
    public var chosenOrder: Int64
    /// Sent with the big animation (`messages.sendReaction`'s `big`).
    public var big: Bool
    public var date: Int32

    public init(userId: Int64, emoticon: String, chosenOrder: Int64, big: Bool, date: Int32) {
        self.userId = userId
        self.emoticon = emoticon
        self.chosenOrder = chosenOrder
        self.big = big
        self.date = date
    }
}

/// The reactions a basic group or channel allows (core.telegram.org type `ChatReactions`; migration 16).
public struct ChatReactionsRecord: Sendable, Equatable {
    public enum Mode: Int64, Sendable {
        /// `chatReactionsAll`: every standard emoji (the default).
        case all = 0
        /// `chatReactionsSome`: the listed emoji only.
        case some = 1
        /// `chatReactionsNone`: no reactions.
        case none = 2
    }

    public var mode: Mode
    /// The allowed emoji with `.some`.
    public var emoticons: [String]
    /// The most distinct reactions one message may carry (`reactions_limit`).
    public var reactionsLimit: Int64

    public init(mode: Mode, emoticons: [String] = [], reactionsLimit: Int64) {
        self.mode = mode
        self.emoticons = emoticons
        self.reactionsLimit = reactionsLimit
    }
}
