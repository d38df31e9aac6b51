public import Postbox

/// Where a chat's history window moves as the reader scrolls (Telegram-iOS `ChatHistoryListNode`: windows of 44
/// messages, moved when the visible rows come within 5 of an edge that has more history behind it, and pinned to the
/// newest messages once the reader is at the bottom with nothing later).
public enum ChatHistoryPaging {
    /// Messages in one window (`historyMessageCount`).
    public static let windowSize = 44
    /// How close (in rows) the visible range may come to an edge before the window moves.
    public static let edgeRows = 5

    /// The anchor of the next window for `view` when rows `visible` of `entries` (oldest first, as
    /// `ChatHistoryEntries.make` builds them) are on screen; nil to keep the window.
    public static func anchor(
        visible: ClosedRange<Int>, entries: [ChatHistoryEntry], view: MessageHistoryView
    ) -> HistoryViewInputAnchor? {
        let messages = entries.flatMap(\.messages)
        guard let oldest = messages.first, let newest = messages.last, !entries.isEmpty else { return nil }
        let rowsBelow = entries.count - 1 - visible.upperBound
        if rowsBelow <= edgeRows {
            if view.laterId != nil { return .index(newest.index) }
            // At the bottom with nothing later: follow the newest messages.
            if rowsBelow <= 0 && view.anchor != .upperBound { return .upperBound }
        }
        if visible.lowerBound <= edgeRows, view.earlierId != nil { return .index(oldest.index) }
        return nil
    }
}
