public import Postbox

/// Builds a history view's entries the way Telegram-iOS's `chatHistoryEntriesForView`
/// (`TelegramUI/Sources/ChatHistoryEntriesForView.swift`) does: messages oldest first; adjacent messages of one
/// Postbox group become one album entry; a date header before each day's first message; the unread separator before
/// the first incoming message not read; a loading row at an end where the view reaches a hole.
public enum ChatHistoryEntries {
    /// The entries of `view`; days are counted in a time zone `utcOffset` seconds east of UTC.
    public static func make(
        from view: MessageHistoryView, utcOffset: Int32 = 0, unreadSeparator: Bool = true
    ) -> [ChatHistoryEntry] {
        // Albums first: adjacent messages of one Postbox group are one item.
        var items: [[MessageHistoryEntry]] = []
        for entry in view.entries {
            if let group = entry.groupInfo, let last = items.last?.first?.groupInfo, last == group {
                items[items.count - 1].append(entry)
            } else {
                items.append([entry])
            }
        }
        var result: [ChatHistoryEntry] = []
        if view.holeEarlier { result.append(.loading(earlier: true)) }
        var lastDay: Int32?
        var unreadPlaced = !unreadSeparator
        for item in items {
            let first = item[0]
            let day = Self.day(of: first.message.timestamp, utcOffset: utcOffset)
            if day != lastDay {
                result.append(.dateHeader(day: day, index: first.index))
                lastDay = day
            }
            if !unreadPlaced, item.contains(where: { $0.message.flags.contains(.incoming) && !$0.isRead }) {
                result.append(.unread(first.index))
                unreadPlaced = true
            }
            if item.count > 1, let group = first.groupInfo {
                result.append(.group(stableId: group.stableId, item))
            } else {
                result.append(.message(first))
            }
        }
        if view.holeLater { result.append(.loading(earlier: false)) }
        return result
    }

    /// Days since 1970-01-01 in a time zone `utcOffset` seconds east of UTC.
    public static func day(of timestamp: Int32, utcOffset: Int32) -> Int32 {
        let local = Int64(timestamp) + Int64(utcOffset)
        return Int32((local >= 0 ? local : local - 86_399) / 86_400)
    }
}
