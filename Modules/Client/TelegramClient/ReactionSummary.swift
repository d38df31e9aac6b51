public import SyncCore

/// One reaction of a message as `--json` prints it: the emoji, how many reacted with it, and whether we did.
public struct ReactionSummary: Codable, Equatable, Sendable {
    public var emoji: String
    public var count: Int32
    /// Ours (`chosen_order` set).
    public var chosen: Bool

    public init(emoji: String, count: Int32, chosen: Bool) {
        self.emoji = emoji
        self.count = count
        self.chosen = chosen
    }

    public init(_ reaction: ReactionsMessageAttribute.Reaction) {
        self.init(emoji: reaction.emoticon, count: reaction.count, chosen: reaction.isChosen)
    }

    /// `👍2`, ours in brackets: `[👍2]`.
    public var label: String { chosen ? "[\(emoji)\(count)]" : "\(emoji)\(count)" }
}
