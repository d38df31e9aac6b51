/// The chat list: pinned chats and each chat's top message, kept in step before commit
/// (Telegram-iOS Postbox `ChatListTable`, `ChatListIndexTable`).
extension Transaction {
    /// A chat's place in the chat list (`nil` when it is not listed).
    public func getPeerChatListIndex(_ peerId: PeerId) throws -> ChatListIndex? {
        try tables.chatListIndex.get(peerId).index(peerId)
    }

    /// The pinned chats, in pinning order.
    public func getPinnedItemIds() throws -> [PeerId] {
        try tables.chatListIndex.pinned().map(\.0)
    }

    /// Pins exactly `peerIds`, in this order; every other chat is unpinned.
    public func setPinnedItemIds(_ peerIds: [PeerId]) throws {
        try checkWritable()
        let previous = try tables.chatListIndex.pinned()
        for (peerId, _) in previous where !peerIds.contains(peerId) {
            var entry = try tables.chatListIndex.get(peerId)
            entry.pinningIndex = nil
            try setChatListEntry(peerId, entry)
        }
        for (position, peerId) in peerIds.enumerated() {
            var entry = try tables.chatListIndex.get(peerId)
            entry.pinningIndex = UInt16(truncatingIfNeeded: position)
            try setChatListEntry(peerId, entry)
        }
    }

    /// Up to `count` chat-list entries below `before` (from the top when `nil`), first shown first.
    public func chatListEntries(before: ChatListIndex?, count: Int) throws -> [ChatListIndex] {
        try tables.chatList.entries(before: before, count: count)
    }

    /// Up to `count` chat-list entries above `after`, nearest first.
    public func chatListEntries(after: ChatListIndex, count: Int) throws -> [ChatListIndex] {
        try tables.chatList.entries(after: after, count: count)
    }

    private func setChatListEntry(_ peerId: PeerId, _ entry: ChatListIndexTable.Entry) throws {
        let old = try tables.chatListIndex.get(peerId)
        guard old != entry else { return }
        let oldIndex = old.index(peerId)
        let newIndex = entry.index(peerId)
        try tables.chatListIndex.set(peerId, entry)
        if oldIndex != newIndex {
            if let oldIndex {
                try tables.chatList.remove(oldIndex)
                operations.chatListOperations.append(.remove(oldIndex, peerId))
            }
            if let newIndex {
                try tables.chatList.add(newIndex)
                operations.chatListOperations.append(.insert(newIndex, peerId))
            }
        }
    }

    /// Recomputes the top message of every chat whose history changed.
    func updateChatListForTouchedPeers() throws {
        for peerId in touchedChatListPeers.sorted() {
            var entry = try tables.chatListIndex.get(peerId)
            entry.topMessageIndex = try topMessageIndex(peerId: peerId)
            try setChatListEntry(peerId, entry)
        }
        touchedChatListPeers.removeAll()
    }

    /// Writes the namespace bookkeeping gathered while adding messages.
    func flushNamespaces() throws {
        for (key, maxId) in namespaceMaxIds {
            try tables.historyMetadata.noteNamespace(key.peerId, key.namespace, usedId: maxId)
        }
        namespaceMaxIds.removeAll()
        namespacesWithMaxIds.removeAll()
    }

    func flushNamespace(_ peerId: PeerId, _ namespace: MessageId.Namespace) throws {
        if let maxId = namespaceMaxIds.removeValue(forKey: ChatNamespace(peerId: peerId, namespace: namespace)) {
            try tables.historyMetadata.noteNamespace(peerId, namespace, usedId: maxId)
        }
    }

    /// Applies the derived-table updates and returns the operations record (Telegram-iOS Postbox `beforeCommit`).
    func beforeCommit() throws -> PostboxTransaction {
        try flushNamespaces()
        try updateChatListForTouchedPeers()
        try flushReadStates()
        if let nextStableId {
            try tables.metadata.setNextStableId(nextStableId)
        }
        return operations
    }
}
