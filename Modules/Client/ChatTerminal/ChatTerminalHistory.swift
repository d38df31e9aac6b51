public import ChatHistory
import ChatRender
public import Postbox
import SyncCore
import TelegramClient

/// The open chat's history pane: the view's entries drawn by `TerminalChatRenderer`, each entry's lines, and how far
/// the reader has scrolled up from the bottom. At the bottom (`scrollOffset` 0) it follows new messages; scrolled
/// up, the line at the bottom of the pane stays where it is while messages arrive below or the window moves.
public struct ChatTerminalHistory: Sendable {
    /// The history view last applied.
    public internal(set) var view: MessageHistoryView?
    /// Its entries, oldest first (`ChatHistoryEntries.make`).
    public internal(set) var entries: [ChatHistoryEntry] = []
    /// Every entry's lines, top to bottom.
    public internal(set) var lines: [String] = []
    /// The first line of each entry (parallel to `entries`).
    public internal(set) var entryStarts: [Int] = []
    /// Lines scrolled up from the bottom (0: the newest line is the pane's last).
    public internal(set) var scrollOffset = 0
    /// The anchor of the history view asked for last (so the same window is not asked for twice).
    public internal(set) var requestedAnchor: HistoryViewInputAnchor?
    /// Names of peers the messages show but do not carry (forwarded authors), from `.peerNames`.
    public internal(set) var peerNames: [PeerId: String] = [:]

    public init() {}

    /// What applying a view changed.
    struct Update {
        var newIncoming = false
    }

    /// Takes a new view of the chat, keeping the reader's place; returns whether new incoming messages arrived.
    mutating func apply(_ view: MessageHistoryView, width: Int, accountPeerId: PeerId, rows: Int) -> Update {
        let known = Set(entries.flatMap(\.messages).map(\.id))
        let place = scrollOffset > 0 ? bottomPlace() : nil
        let hadNewest = entries.flatMap(\.messages).last?.index
        self.view = view
        entries = ChatHistoryEntries.make(from: view)
        relayout(width: width, accountPeerId: accountPeerId)
        let fresh = entries.flatMap(\.messages).filter { message in
            !known.contains(message.id) && (hadNewest.map { message.index > $0 } ?? true)
        }
        var update = Update()
        update.newIncoming = !known.isEmpty && fresh.contains { $0.flags.contains(MessageFlags.incoming) }
        if fresh.contains(where: { !$0.flags.contains(MessageFlags.incoming) }) && !known.isEmpty {
            // Our own new message: back to the bottom, as Telegram does.
            scrollOffset = 0
        } else if let place, let index = entries.firstIndex(where: { $0.stableId == place.id }) {
            let bottomLine = entryStarts[index] + place.within
            scrollOffset = lines.count - 1 - bottomLine
        }
        clampScroll(rows: rows)
        return update
    }

    /// Draws the entries again (a new width or account).
    mutating func relayout(width: Int, accountPeerId: PeerId?) {
        guard let accountPeerId else { return }
        let names = Dictionary(
            entries.flatMap(\.messages).compactMap { message in
                message.author.map { ($0.id, PeerResolver.displayName($0)) }
            }, uniquingKeysWith: { first, _ in first }
        ).merging(peerNames, uniquingKeysWith: { author, _ in author })
        let renderer = TerminalChatRenderer(width: width, accountPeerId: accountPeerId, names: names)
        lines = renderer.render(entries)
        // Each entry's share of the lines: drawn alone, an entry takes as many lines as in the whole drawing.
        var starts: [Int] = []
        var line = 0
        for entry in entries {
            starts.append(line)
            line += renderer.render([entry]).count
        }
        entryStarts = starts
    }

    mutating func scroll(by delta: Int, rows: Int) {
        scrollOffset += delta
        clampScroll(rows: rows)
    }

    mutating func clampScroll(rows: Int) {
        scrollOffset = min(max(0, scrollOffset), max(0, lines.count - rows))
    }

    /// The lines in a pane of `rows`, top to bottom, padded above when the history is shorter.
    public func visibleLines(rows: Int) -> [String] {
        let end = lines.count - scrollOffset
        let start = max(0, end - rows)
        let shown = Array(lines[start..<max(start, end)])
        return Array(repeating: "", count: max(0, rows - shown.count)) + shown
    }

    /// The entries with a line in a pane of `rows` (indices into `entries`).
    func visibleEntries(rows: Int) -> ClosedRange<Int>? {
        guard !entries.isEmpty, !lines.isEmpty else { return nil }
        let end = lines.count - 1 - scrollOffset
        let start = max(0, end - rows + 1)
        guard let first = entryIndex(atLine: start), let last = entryIndex(atLine: end) else { return nil }
        return first...last
    }

    func entryIndex(atLine line: Int) -> Int? {
        guard line >= 0 else { return nil }
        return entryStarts.lastIndex { $0 <= line }
    }

    /// The entry at the pane's bottom line and how far into it that line is.
    func bottomPlace() -> (id: ChatHistoryEntryId, within: Int)? {
        let line = lines.count - 1 - scrollOffset
        guard let index = entryIndex(atLine: line) else { return nil }
        return (entries[index].stableId, line - entryStarts[index])
    }
}
