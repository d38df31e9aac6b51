import ChatRender
import Foundation
public import Postbox
import TelegramClient

/// What the terminal shows: exactly `height` lines of `width` columns (ANSI styles inside), and where the cursor goes.
public struct ChatTerminalScreen: Equatable, Sendable {
    public var lines: [String]
    /// The cursor's row and column, from 0.
    public var cursorRow: Int
    public var cursorColumn: Int

    /// The lines without ANSI escape sequences and trailing spaces (what a screen capture reads).
    public var plainLines: [String] { lines.map { Self.plain($0) } }

    /// `text` without its ANSI escape sequences and trailing spaces.
    public static func plain(_ text: String) -> String {
        var result = ""
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                continue
            }
            result.unicodeScalars.append(scalar)
        }
        while result.last == " " { result.removeLast() }
        return result
    }
}

extension ChatTerminalState {
    static let reverse = "\u{1B}[7m"
    static let dim = "\u{1B}[2m"
    static let bold = "\u{1B}[1m"
    static let reset = "\u{1B}[0m"

    /// The screen for the current state.
    public var screen: ChatTerminalScreen {
        var lines: [String] = [Self.reverse + Self.fit(title, width) + Self.reset]
        switch mode {
        case .chatList: lines += chatListLines()
        case .chat:
            if let bar = pinnedBar {
                lines.append(Self.fit(Self.bold + "📌 \(PinnedMessageBar.title): " + Self.reset + bar.text, width))
                lines.append(Self.dim + String(repeating: "─", count: width) + Self.reset)
            }
            lines += history.visibleLines(rows: historyRows).map { Self.fit($0, width) }
        case .search: lines += searchLines()
        }
        lines.append(Self.dim + Self.fit(statusLine, width) + Self.reset)
        let prompt = promptText
        let available = width - DisplayWidth.of(prompt) - 1
        // The end of a long line stays in view.
        var shown = compose
        while DisplayWidth.of(shown) > available, !shown.isEmpty { shown.removeFirst() }
        lines.append(Self.fit(prompt + shown, width))
        return ChatTerminalScreen(
            lines: lines, cursorRow: lines.count - 1, cursorColumn: DisplayWidth.of(prompt) + DisplayWidth.of(shown))
    }

    var title: String {
        let where_: String
        switch mode {
        case .chatList: where_ = "Chats"
        case .chat(let peerId):
            where_ =
                (chats.first { $0.peerId == peerId }?.name ?? chatTitleFromHistory(peerId))
                + (typingPeers.contains(peerId)
                    ? " (typing…)" : presences[peerId].map { " · " + $0.text } ?? "")
        case .search: where_ = "Search “\(searchQuery)”"
        }
        return " \(where_) — \(accountName) · \(connection.title)"
    }

    func chatTitleFromHistory(_ peerId: PeerId) -> String {
        history.entries.flatMap(\.messages).compactMap(\.author).first { $0.id == peerId }
            .map { PeerResolver.displayName($0) } ?? PeerResolver.handle(peerId)
    }

    var statusLine: String {
        if let notice { return " " + notice }
        switch mode {
        case .chatList:
            return chats.isEmpty
                ? " no chats yet — /search TEXT, Tab switches account, Ctrl-C leaves"
                : " ↑↓ select · Enter open · /search TEXT · Tab account · Ctrl-C quit"
        case .chat:
            if history.scrollOffset > 0 {
                return " scrolled up \(history.scrollOffset) lines — End goes to the newest"
            }
            return " Enter send (markdown) · /reply /photo /file /voice /sticker · PgUp older · Esc back"
        case .search:
            return " ↑↓ select · Enter open · Esc back"
        }
    }

    var promptText: String {
        if let replyTo { return "reply \(replyTo)> " }
        if case .chat = mode { return "> " }
        return ": "
    }

    func chatListLines() -> [String] {
        let rows = listRows
        let top = max(0, min(selectedChat - rows + 1, chats.count - rows))
        var lines: [String] = []
        for index in top..<min(chats.count, top + rows) {
            let chat = chats[index]
            let unread = chat.unread > 0 ? " (\(chat.unread))" : ""
            let marker = index == selectedChat ? "▶ " : "  "
            let presence = presences[chat.peerId].map { " · " + $0.text } ?? ""
            let mute = muted.contains(chat.peerId) ? " 🔇" : ""
            let head = marker + chat.name + mute + unread + presence
            // A draft stands in for the last message, as in Telegram's chat list.
            let last = chat.draft.map { "Draft: " + $0.split(whereSeparator: \.isNewline).joined(separator: " ") }
            let text = Self.fit(head + "  " + Self.dim + (last ?? chat.lastMessage) + Self.reset, width)
            lines.append(index == selectedChat ? Self.bold + text + Self.reset : text)
        }
        return lines + Array(repeating: Self.fit("", width), count: rows - lines.count)
    }

    func searchLines() -> [String] {
        let rows = listRows
        let top = max(0, min(selectedHit - rows + 1, searchHits.count - rows))
        var lines: [String] = []
        for index in top..<min(searchHits.count, top + rows) {
            let hit = searchHits[index]
            let marker = index == selectedHit ? "▶ " : "  "
            lines.append(Self.fit(marker + hit.chatName + ": " + hit.text, width))
        }
        return lines + Array(repeating: Self.fit("", width), count: rows - lines.count)
    }

    /// Columns `text` takes on a terminal (escape sequences none).
    static func columns(_ text: String) -> Int { DisplayWidth.of(text) }

    /// `text` cut or padded to exactly `width` columns (escape sequences take none; a cut ends styles).
    static func fit(_ text: String, _ width: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        let columns = DisplayWidth.of(flat)
        if columns <= width { return flat + String(repeating: " ", count: width - columns) }
        var result = ""
        var used = 0
        var inEscape = false
        for character in flat {
            if character == "\u{1B}" { inEscape = true }
            if inEscape {
                result.append(character)
                if let ascii = character.asciiValue, (0x40...0x7E).contains(ascii), character != "[" {
                    inEscape = false
                }
                continue
            }
            let cell = DisplayWidth.of(character)
            if used + cell > width - 1 { break }
            result.append(character)
            used += cell
        }
        return result + reset + "…" + String(repeating: " ", count: max(0, width - used - 1))
    }
}
