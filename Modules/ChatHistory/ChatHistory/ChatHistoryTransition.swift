public import ListView
public import MergeLists
import Postbox

extension ChatHistoryEntry: MergeableItem {}

/// Why a chat's list changes (Telegram-iOS `ChatHistoryViewTransitionReason`).
public enum ChatHistoryTransitionReason: Equatable, Sendable {
    /// The first view of the chat.
    case initial
    /// Messages arrived, were sent, edited or deleted while the chat is open.
    case interactiveChanges
    /// The window moved (paging) or was rebuilt.
    case reload
    /// A hole was filled: what was loading is now messages.
    case holeReload
}

/// The change from one view's entries to the next, in the list's order (Telegram-iOS
/// `preparedChatHistoryViewTransition` in `TelegramUI/Sources/PreparedChatHistoryViewTransition.swift`): the list is
/// inverted, so index 0 is the newest entry and the merge runs over both entry lists newest first.
public struct ChatHistoryTransition: Sendable {
    public let reason: ChatHistoryTransitionReason
    /// Deletes, inserts and updates by index in the inverted list (`ListMerge.stableWithUpdatesReversed`).
    public let changes: ListMergeResult<ChatHistoryEntry>
    /// Whether the list should go to the bottom: on the first view, and when this account's own new message arrives
    /// at the bottom (a reader who sends expects to see it). Otherwise the list keeps what the reader looks at.
    public let scrollToBottom: Bool

    /// The transition from `previous` to `next` (both oldest first, as `ChatHistoryEntries.make` builds them).
    public static func make(
        from previous: [ChatHistoryEntry], to next: [ChatHistoryEntry], reason: ChatHistoryTransitionReason
    ) -> ChatHistoryTransition {
        let changes = ListMerge.stableWithUpdatesReversed(left: previous.reversed(), right: next.reversed())
        let ownNewMessage = changes.inserts.contains { insert in
            insert.index == 0 && insert.previousIndex == nil
                && insert.item.messages.contains { !$0.flags.contains(.incoming) }
        }
        return ChatHistoryTransition(
            reason: reason, changes: changes,
            scrollToBottom: reason == .initial || (reason == .interactiveChanges && ownNewMessage))
    }

    /// The same change as a list transaction, each entry made into the list's item by `item`.
    public func listTransaction<Item: ListViewItem>(_ item: (ChatHistoryEntry) -> Item) -> ListViewTransaction<Item> {
        ListViewTransaction(
            deleteIndices: changes.deleteIndices,
            inserts: changes.inserts.map {
                .init(index: $0.index, previousIndex: $0.previousIndex, item: item($0.item))
            },
            updates: changes.updates.map {
                .init(index: $0.index, previousIndex: $0.previousIndex, item: item($0.item))
            })
    }
}
