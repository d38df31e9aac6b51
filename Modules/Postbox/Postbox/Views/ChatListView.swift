/// One chat in a chat-list view.
public struct ChatListEntry: Equatable, Sendable {
    public let index: ChatListIndex
    public let peer: Peer?
    /// The chat's newest message (`nil` for a pinned chat without messages).
    public let topMessage: Message?
    /// Unread incoming messages across namespaces.
    public let unreadCount: Int32

    public var peerId: PeerId { index.messageIndex.id.peerId }
    public var isPinned: Bool { index.pinningIndex != nil }

    public static func == (lhs: ChatListEntry, rhs: ChatListEntry) -> Bool {
        lhs.index == rhs.index && lhs.unreadCount == rhs.unreadCount && peersEqual(lhs.peer, rhs.peer)
            && messagesEqual(lhs.topMessage, rhs.topMessage)
    }
}

/// Where a chat-list view is anchored.
public enum ChatListViewAnchor: Hashable, Sendable {
    /// The top of the list (pinned chats, then the most recent).
    case top
    /// Around a chat's place in the list.
    case index(ChatListIndex)
}

/// A snapshot of the chat list (Telegram-iOS Postbox `ChatListView`): pinned chats first in pinning order, then the
/// others by their last message, newest first.
public struct ChatListView: PostboxView, Equatable {
    public let anchor: ChatListViewAnchor
    public let count: Int
    /// At most `count` chats, in the order shown (top first).
    public let entries: [ChatListEntry]
    /// The place of the chat just above the first entry, when there is one (page up from here).
    public let laterIndex: ChatListIndex?
    /// The place of the chat just below the last entry, when there is one (page down from here).
    public let earlierIndex: ChatListIndex?
}

/// A chat-list window item, ordered by chat-list index.
struct ChatListWindowItem: WindowEntry {
    let entry: ChatListEntry
    var windowKey: ChatListIndex { entry.index }
}

/// The live side of `ChatListView`: a window over the chat-list index kept in step with the chat-list operations;
/// it re-reads only the entries whose chat, top message, author, media or read state changed.
final class MutableChatListView: MutablePostboxView {
    let anchor: ChatListViewAnchor
    let count: Int
    private var window: AnchoredWindow<ChatListWindowItem>

    /// This view reads only which chats changed (the keys of `currentOperationsByPeerId`), never their messages.
    var renderedMessagePeers: Set<PeerId> { [] }

    init(_ transaction: Transaction, anchor: ChatListViewAnchor, count: Int) throws {
        self.anchor = anchor
        self.count = max(1, count)
        window = try AnchoredWindow(
            anchor: Self.windowAnchor(anchor), count: self.count, loader: Self.loader(transaction))
    }

    private static func windowAnchor(_ anchor: ChatListViewAnchor) -> WindowAnchor<ChatListIndex> {
        switch anchor {
        case .top: return .upper
        case .index(let index): return .key(index)
        }
    }

    static func entry(_ transaction: Transaction, _ index: ChatListIndex) throws -> ChatListEntry {
        let peerId = index.messageIndex.id.peerId
        let top = try transaction.getMessage(index.messageIndex.id).flatMap {
            $0.index == index.messageIndex ? $0 : nil
        }
        return ChatListEntry(
            index: index, peer: try transaction.getPeer(peerId), topMessage: top,
            unreadCount: try transaction.getCombinedPeerReadState(peerId)?.count ?? 0)
    }

    private static func loader(_ transaction: Transaction) -> WindowLoader<ChatListWindowItem> {
        WindowLoader(
            load: { side, beyond, count in
                let indices: [ChatListIndex]
                switch (side, beyond) {
                case (.lower, _): indices = try transaction.chatListEntries(before: beyond, count: count)
                case (.upper, .some(let after)): indices = try transaction.chatListEntries(after: after, count: count)
                case (.upper, nil): indices = []
                }
                return try indices.map { ChatListWindowItem(entry: try entry(transaction, $0)) }
            },
            loadAt: { index in
                guard try transaction.getPeerChatListIndex(index.messageIndex.id.peerId) == index else { return nil }
                return ChatListWindowItem(entry: try entry(transaction, index))
            })
    }

    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> Bool {
        var changed = false
        var inserted: Set<PeerId> = []
        for operation in operations.chatListOperations {
            switch operation {
            case .remove(let index, let peerId):
                changed = window.remove(index) || changed
                inserted.remove(peerId)
            case .insert(let index, let peerId):
                let item = ChatListWindowItem(entry: try Self.entry(transaction, index))
                if window.insert(item) {
                    changed = true
                    inserted.insert(peerId)
                }
            }
        }
        let touched =
            Set(operations.currentOperationsByPeerId.keys).union(operations.updatedPeers.keys)
            .union(operations.updatedReadStates.keys)
        if !touched.isEmpty || !operations.updatedMedia.isEmpty {
            changed =
                try window.update { item in
                    let entry = item.entry
                    guard !inserted.contains(entry.peerId) else { return nil }
                    let top = entry.topMessage
                    let affected =
                        touched.contains(entry.peerId) || (top?.authorId.map { touched.contains($0) } ?? false)
                        || (top?.media.contains { $0.id.map { operations.updatedMedia[$0] != nil } ?? false } ?? false)
                    return affected ? ChatListWindowItem(entry: try Self.entry(transaction, entry.index)) : nil
                } || changed
        }
        if window.needsRefill { changed = try window.refill(Self.loader(transaction)) || changed }
        return changed
    }

    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> Bool {
        let loaded = window.loaded.map(\.entry)
        let peers = Set(loaded.map(\.peerId))
        let authors = Set(loaded.compactMap { $0.topMessage?.authorId })
        let mediaIds = Set(loaded.flatMap { $0.topMessage?.media.compactMap(\.id) ?? [] })
        let affected =
            changes.everything || changes.chatList || !changes.historyPeers.isDisjoint(with: peers)
            || !changes.readStates.isDisjoint(with: peers) || !changes.peers.isDisjoint(with: peers.union(authors))
            || !changes.media.isDisjoint(with: mediaIds)
        guard affected else { return false }
        window = try AnchoredWindow(anchor: Self.windowAnchor(anchor), count: count, loader: Self.loader(transaction))
        return true
    }

    func immutableView() -> ChatListView {
        let visible = window.visible
        return ChatListView(
            anchor: anchor, count: count, entries: visible.entries.reversed().map(\.entry),
            laterIndex: visible.upperNeighbor, earlierIndex: visible.lowerNeighbor)
    }
}
