/// Read states: unread counts kept in step with incoming messages, and the read-up-to marks
/// (Telegram-iOS Postbox `applyIncomingReadMaxId`, `applyInteractiveReadMaxIndex`).
extension Transaction {
    func readState(_ peerId: PeerId) throws -> CombinedPeerReadState {
        if let cached = readStateCache[peerId] { return cached }
        let state = try tables.readStates.get(peerId) ?? CombinedPeerReadState(states: [:])
        readStateCache[peerId] = state
        return state
    }

    private func storeReadState(_ peerId: PeerId, _ state: CombinedPeerReadState) {
        readStateCache[peerId] = state
        dirtyReadStates.insert(peerId)
    }

    /// A chat's read states (`nil` when the chat has none yet).
    public func getCombinedPeerReadState(_ peerId: PeerId) throws -> CombinedPeerReadState? {
        let state = try readState(peerId)
        return state.states.isEmpty ? nil : state
    }

    func noteInsertedForReadState(_ record: MessageRecord) throws {
        let id = record.id
        // One hash lookup for the chat, then the state is mutated in place through its index: copying the state out
        // would copy its dictionary for every message.
        var position = readStateCache.index(forKey: id.peerId)
        if position == nil {
            _ = try readState(id.peerId)
            position = readStateCache.index(forKey: id.peerId)
        }
        guard let position else { return }
        // The namespace's entry is found once and, when present, changed through its index.
        let slot = readStateCache.values[position].states.index(forKey: id.namespace)
        let previous = slot.map { readStateCache.values[position].states.values[$0] }
        var entry = previous ?? .empty
        entry.maxKnownId = max(entry.maxKnownId, id.id)
        if record.flags.contains(.incoming) && id.id > entry.maxIncomingReadId { entry.count += 1 }
        guard entry != previous else { return }
        if let slot {
            readStateCache.values[position].states.values[slot] = entry
        } else {
            readStateCache.values[position].states[id.namespace] = entry
        }
        dirtyReadStates.insert(id.peerId)
    }

    func noteRemovedForReadState(_ id: MessageId, flags: MessageFlags) throws {
        guard flags.contains(.incoming) else { return }
        var state = try readState(id.peerId)
        guard var entry = state.states[id.namespace], id.id > entry.maxIncomingReadId, entry.count > 0 else { return }
        entry.count -= 1
        state.states[id.namespace] = entry
        storeReadState(id.peerId, state)
    }

    /// Marks incoming messages up to `messageId` as read and recounts the unread ones after it.
    public func applyIncomingReadMaxId(_ messageId: MessageId) throws {
        try checkWritable()
        var state = try readState(messageId.peerId)
        var entry = state.states[messageId.namespace] ?? .empty
        guard messageId.id > entry.maxIncomingReadId else { return }
        entry.maxIncomingReadId = messageId.id
        entry.maxKnownId = max(entry.maxKnownId, messageId.id)
        entry.count =
            messageId.id == Int32.max
            ? 0
            : Int32(
                try tables.messageIndex.entries(
                    peerId: messageId.peerId, namespace: messageId.namespace, ids: (messageId.id + 1)...Int32.max
                ).filter { $0.1.flags.contains(.incoming) }.count)
        state.states[messageId.namespace] = entry
        storeReadState(messageId.peerId, state)
    }

    /// Records that the other side read outgoing messages up to `messageId`.
    public func applyOutgoingReadMaxId(_ messageId: MessageId) throws {
        try checkWritable()
        var state = try readState(messageId.peerId)
        var entry = state.states[messageId.namespace] ?? .empty
        guard messageId.id > entry.maxOutgoingReadId else { return }
        entry.maxOutgoingReadId = messageId.id
        state.states[messageId.namespace] = entry
        storeReadState(messageId.peerId, state)
    }

    /// Replaces a chat's read states (e.g. from the server's dialog list).
    public func resetIncomingReadStates(_ states: [PeerId: [MessageId.Namespace: PeerReadState]]) throws {
        try checkWritable()
        for (peerId, namespaces) in states {
            var state = try readState(peerId)
            for (namespace, entry) in namespaces { state.states[namespace] = entry }
            storeReadState(peerId, state)
        }
    }

    /// Writes changed read states and records them for views.
    func flushReadStates() throws {
        for peerId in dirtyReadStates.sorted() {
            guard let state = readStateCache[peerId] else { continue }
            let stored = try tables.readStates.get(peerId)
            if stored == state { continue }
            try tables.readStates.set(peerId, state)
            operations.updatedReadStates[peerId] = state
            operations.append(.updateReadState(state), peerId: peerId)
        }
        dirtyReadStates.removeAll()
    }
}
