public import SyncCore

/// The line under a chat's title: for a private chat, the user's presence as Telegram's chat header shows it
/// ("online" in the accent colour, "last seen 5 minutes ago" / "last seen recently" in grey;
/// `TelegramUserPresence.statusText(at:)`).
public struct ChatSubtitle: Equatable, Sendable {
    public var text: String
    /// Drawn in the accent colour.
    public var isOnline: Bool

    public init(text: String, isOnline: Bool = false) {
        self.text = text
        self.isOnline = isOnline
    }

    /// The presence line at `now` (a unix time).
    public init(presence: TelegramUserPresence, now: Int32) {
        self.init(text: presence.statusText(at: now), isOnline: presence.isOnline(at: now))
    }
}

extension TerminalChatRenderer {
    /// The chat's header for the terminal: the title in bold and the subtitle after it ("Ben · online", the presence
    /// in blue when online, dim otherwise), then a rule.
    public func headerLines(title: String, subtitle: ChatSubtitle?) -> [String] {
        let rule = String(repeating: "─", count: width)
        guard let subtitle else {
            return colors
                ? ["\u{1B}[1m" + title + TerminalStyle.reset, TerminalStyle.dim + rule + TerminalStyle.reset]
                : [title, rule]
        }
        guard colors else { return ["\(title) · \(subtitle.text)", rule] }
        let style = subtitle.isOnline ? "\u{1B}[38;5;32m" : TerminalStyle.dim
        return [
            "\u{1B}[1m" + title + TerminalStyle.reset + " · " + style + subtitle.text + TerminalStyle.reset,
            TerminalStyle.dim + rule + TerminalStyle.reset,
        ]
    }
}
