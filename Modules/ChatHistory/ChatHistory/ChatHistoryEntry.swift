public import Postbox

/// One row of a chat's history as the list shows it (Telegram-iOS `ChatHistoryEntry`,
/// `TelegramUI/Components/Chat/ChatHistoryEntry/Sources/ChatHistoryEntry.swift`): a message, an album (messages
/// sharing a group, one item), the day's date header, the unread separator, or a hole still loading at either end.
/// Entries are ordered oldest first by `sortKey` and identified across views by `stableId`, which is what a stable
/// list merge needs.
public enum ChatHistoryEntry: Equatable, Sendable {
    case message(MessageHistoryEntry)
    /// An album: its Postbox group id and its messages, oldest first.
    case group(stableId: UInt32, [MessageHistoryEntry])
    /// The header of the day whose first message is at `index` (`day` counts days since 1970 in the view's time zone).
    case dateHeader(day: Int32, index: MessageIndex)
    /// The separator above the first unread incoming message.
    case unread(MessageIndex)
    /// More history is being fetched above (`earlier`) or below the window.
    case loading(earlier: Bool)

    /// The identity that survives updates (a message's Postbox stable id, an album's group id, a day, …).
    public var stableId: ChatHistoryEntryId {
        switch self {
        case .message(let entry): return .message(entry.message.stableId)
        case .group(let stableId, _): return .group(stableId)
        case .dateHeader(let day, _): return .dateHeader(day)
        case .unread: return .unread
        case .loading(let earlier): return .loading(earlier: earlier)
        }
    }

    /// Where the entry sorts: by message index, a header before its day's first message and the separator before
    /// its message, a loading row before or after everything.
    public var sortKey: ChatHistorySortKey {
        switch self {
        case .message(let entry): return ChatHistorySortKey(edge: 1, index: entry.index, rank: 2)
        case .group(_, let entries):
            return ChatHistorySortKey(edge: 1, index: entries.last?.index ?? ChatHistorySortKey.noIndex, rank: 2)
        case .dateHeader(_, let index): return ChatHistorySortKey(edge: 1, index: index, rank: 0)
        case .unread(let index): return ChatHistorySortKey(edge: 1, index: index, rank: 1)
        case .loading(let earlier):
            return ChatHistorySortKey(edge: earlier ? 0 : 2, index: ChatHistorySortKey.noIndex, rank: 0)
        }
    }

    /// The messages the entry shows (none for headers, separators and loading rows).
    public var messages: [Message] {
        switch self {
        case .message(let entry): return [entry.message]
        case .group(_, let entries): return entries.map(\.message)
        default: return []
        }
    }
}

/// The identity of a history entry across views.
public enum ChatHistoryEntryId: Hashable, Sendable {
    case message(UInt32)
    case group(UInt32)
    case dateHeader(Int32)
    case unread
    case loading(earlier: Bool)
}

/// The order of history entries: the edge (earlier loading row, the history, later loading row), then the message
/// index, then the rank within one index (header, separator, message).
public struct ChatHistorySortKey: Comparable, Hashable, Sendable {
    public let edge: Int
    public let index: MessageIndex
    public let rank: Int

    /// The index of rows that belong to no message (the loading rows sort by their edge alone).
    public static let noIndex = MessageIndex(id: MessageId(peerId: PeerId(0), namespace: 0, id: 0), timestamp: 0)

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.edge, lhs.index, lhs.rank) < (rhs.edge, rhs.index, rhs.rank)
    }
}

extension ChatHistoryEntry: Comparable {
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sortKey < rhs.sortKey }
}
