public import Buffers
public import PostboxCoding
public import ValueBox

/// The handle a transaction closure reads and writes through (Telegram-iOS Postbox `Transaction`). It is valid only
/// inside the closure, on the queue that runs it.
public final class Transaction {
    let tables: PostboxTables
    /// Whether this is a read transaction on a reader connection (writes throw `readOnlyTransaction`).
    public let isReadOnly: Bool
    var operations = PostboxTransaction()
    var touchedChatListPeers: Set<PeerId> = []
    var readStateCache: [PeerId: CombinedPeerReadState] = [:]
    var dirtyReadStates: Set<PeerId> = []
    /// The highest message id added per chat namespace, written to the history metadata before commit; one flat
    /// dictionary, so an insert hashes its chat and namespace once.
    var namespaceMaxIds: [ChatNamespace: Int32] = [:]
    /// The namespaces among `namespaceMaxIds`' keys (a handful), to list a chat's namespaces without a scan.
    var namespacesWithMaxIds: Set<MessageId.Namespace> = []
    var nextStableId: UInt32?
    var peerCache: [PeerId: Peer?] = [:]
    /// The chats whose inserted and updated messages are rendered into the operations record: `nil` renders them for
    /// every chat (a transaction observer is registered, or the transaction does not come from `transactionSync`);
    /// otherwise only the chats an open view reads, so a bulk insert nobody watches builds no `Message`s.
    var renderedMessagePeers: Set<PeerId>?
    /// How many inserted or updated messages this transaction rendered into its operations.
    var renderedMessageCount = 0
    /// What `afterCommit` asked to run once this transaction commits.
    var commitActions: [() -> Void] = []

    init(tables: PostboxTables, isReadOnly: Bool) {
        self.tables = tables
        self.isReadOnly = isReadOnly
    }

    func checkWritable() throws {
        if isReadOnly { throw PostboxError.readOnlyTransaction }
    }

    /// Runs `action` once this write transaction has committed — on the writer queue, after the live views got their
    /// snapshots — and never if it rolls back: how a change Postbox's operations do not record (a keychain entry, say)
    /// is announced only when it is durable. Only `transactionSync` runs these; `action` must not start another
    /// transaction synchronously.
    public func afterCommit(_ action: @escaping () -> Void) {
        commitActions.append(action)
    }

    // MARK: State and keychain

    /// The account state object stored by the core (`nil` until set).
    public func getState() throws -> PostboxCoding? { try tables.metadata.state() }

    /// Replaces the account state object.
    public func setState(_ state: PostboxCoding) throws {
        try checkWritable()
        try tables.metadata.setState(state)
        operations.stateUpdated = true
    }

    /// A keychain entry by name.
    public func keychainEntryForKey(_ key: String) throws -> [UInt8]? { try tables.keychain.get(key) }

    /// Stores a keychain entry.
    public func setKeychainEntry(_ value: [UInt8], forKey key: String) throws {
        try checkWritable()
        try tables.keychain.set(key, value)
    }

    /// Removes a keychain entry, overwriting its bytes on disk (`secure_delete`).
    public func removeKeychainEntry(forKey key: String) throws {
        try checkWritable()
        try tables.keychain.remove(key)
    }

    // MARK: Peers

    /// A stored peer.
    public func getPeer(_ peerId: PeerId) throws -> Peer? {
        if let cached = peerCache[peerId] { return cached }
        let peer = try tables.peers.get(peerId)
        peerCache[peerId] = .some(peer)
        return peer
    }

    /// Every stored peer, by id.
    public func getAllPeers() throws -> [Peer] { try tables.peers.all() }

    /// Stores peers, recording those that changed.
    public func updatePeers(_ peers: [Peer]) throws {
        try checkWritable()
        for peer in peers {
            if let previous = try getPeer(peer.id), previous.isEqual(peer) { continue }
            try tables.peers.set(peer)
            peerCache[peer.id] = .some(peer)
            operations.updatedPeers[peer.id] = peer
        }
    }

    /// A peer's presence.
    public func getPeerPresence(_ peerId: PeerId) throws -> PeerPresence? { try tables.presences.get(peerId) }

    /// Stores presences, recording those that changed.
    public func updatePeerPresences(_ presences: [PeerId: PeerPresence]) throws {
        try checkWritable()
        for (peerId, presence) in presences {
            if let previous = try tables.presences.get(peerId), previous.isEqual(to: presence) { continue }
            try tables.presences.set(peerId, presence)
            operations.updatedPeerPresences[peerId] = presence
        }
    }

    // MARK: Preferences

    /// A preferences entry.
    public func getPreferencesEntry(key: ValueBoxKey) throws -> PreferencesEntry? { try tables.preferences.get(key) }

    /// Sets or (with `nil`) removes a preferences entry.
    public func setPreferencesEntry(key: ValueBoxKey, value: PreferencesEntry?) throws {
        try checkWritable()
        let previous = try tables.preferences.get(key)
        switch (previous, value) {
        case (nil, nil): return
        case let (.some(old), .some(new)) where old.isEqual(to: new): return
        default: break
        }
        try tables.preferences.set(key, value)
        operations.updatedPreferences[key] = .some(value)
    }

    /// Reads, transforms and writes back a preferences entry.
    public func updatePreferencesEntry(key: ValueBoxKey, _ f: (PreferencesEntry?) -> PreferencesEntry?) throws {
        try setPreferencesEntry(key: key, value: f(try getPreferencesEntry(key: key)))
    }

    // MARK: Ordered item lists

    /// The items of an ordered list, first to last.
    public func getOrderedListItems(collectionId: Int32) throws -> [OrderedItemListEntry] {
        try tables.orderedItemLists.items(collectionId)
    }

    /// Replaces an ordered list.
    public func replaceOrderedItemListItems(collectionId: Int32, items: [OrderedItemListEntry]) throws {
        try checkWritable()
        try tables.orderedItemLists.replace(collectionId, items)
        operations.updatedOrderedItemLists.insert(collectionId)
    }

    /// Puts `item` first (removing an older copy), dropping items past `removeTailIfCountExceeds`.
    public func addOrMoveToFirstPositionOrderedItemListItem(
        collectionId: Int32, item: OrderedItemListEntry, removeTailIfCountExceeds: Int?
    ) throws {
        var items = try getOrderedListItems(collectionId: collectionId).filter { $0.id != item.id }
        items.insert(item, at: 0)
        if let limit = removeTailIfCountExceeds, items.count > limit { items.removeLast(items.count - limit) }
        try replaceOrderedItemListItems(collectionId: collectionId, items: items)
    }

    /// Removes the item with `itemId` from an ordered list.
    public func removeOrderedItemListItem(collectionId: Int32, itemId: MemoryBuffer) throws {
        let items = try getOrderedListItems(collectionId: collectionId)
        let remaining = items.filter { $0.id != itemId }
        if remaining.count != items.count {
            try replaceOrderedItemListItems(collectionId: collectionId, items: remaining)
        }
    }

    // MARK: Media and unsent

    /// Shared media by id.
    public func getMedia(_ id: MediaId) throws -> Media? { try tables.media.get(id) }

    /// Replaces stored shared media; messages that reference it see the new value.
    public func updateMedia(_ id: MediaId, update media: Media) throws {
        try checkWritable()
        if try tables.media.update(id, media) { operations.updatedMedia[id] = media }
    }

    /// Ids of messages waiting to be sent.
    public func unsentMessageIds() throws -> [MessageId] { try tables.unsent.all() }
}

/// One message namespace of one chat.
struct ChatNamespace: Hashable {
    let peerId: PeerId
    let namespace: MessageId.Namespace
}
