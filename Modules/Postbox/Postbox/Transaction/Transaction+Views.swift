import ValueBox

/// Reads the live views need beyond the public ones.
extension Transaction {
    /// The nearest stored message id of a chat namespace below (`earlier`) or above `id`.
    func neighborMessageId(peerId: PeerId, namespace: Int32, id: Int32, earlier: Bool) throws -> Int32? {
        let key = Keys.messageId(MessageId(peerId: peerId, namespace: namespace, id: id))
        let prefix = Keys.peerNamespace(peerId, namespace)
        var result: Int32?
        try tables.valueBox.range(
            tables.messageIndex.table, start: key, end: earlier ? prefix : prefix.successor, limit: 1
        ) { key in
            result = key.getInt32(12)
            return false
        }
        // Ids are stored big-endian two's complement: negative ids sort after positive ones, so keep only ids on the
        // asked side in signed order.
        if let found = result, earlier ? found >= id : found <= id { return nil }
        return result
    }

    /// The index of the first incoming message after the read mark of a chat namespace, if any is unread.
    func firstUnreadIncomingIndex(peerId: PeerId, namespace: Int32) throws -> MessageIndex? {
        guard let state = try getCombinedPeerReadState(peerId)?.states[namespace], state.count > 0 else { return nil }
        let start = Keys.messageId(MessageId(peerId: peerId, namespace: namespace, id: state.maxIncomingReadId))
        let prefix = Keys.peerNamespace(peerId, namespace)
        var result: MessageIndex?
        try tables.valueBox.range(tables.messageIndex.table, start: start, end: prefix.successor) { key, value in
            guard let entry = MessageHistoryIndexTable.entry(value), entry.flags.contains(.incoming) else {
                return true
            }
            result = MessageIndex(id: Keys.messageIdFromKey(key), timestamp: entry.timestamp)
            return false
        }
        return result
    }

    /// Every chat's unread count (chats with read states only), with this transaction's changes.
    func allUnreadCounts() throws -> [PeerId: Int32] {
        var result = try tables.readStates.all().mapValues(\.count)
        for (peerId, state) in readStateCache { result[peerId] = state.count }
        return result
    }
}
