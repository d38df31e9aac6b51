/// Adding, reading, updating and deleting messages; every write keeps the index, tag, media, text-index,
/// unsent, read-state and chat-list tables in step and records the operation for views.
extension Transaction {
    /// Stores messages; partial ids get the next local id of their namespace. Returns the ids in input order.
    @discardableResult
    public func addMessages(_ messages: [StoreMessage]) throws -> [MessageId] {
        try add(messages, replacingStored: true).added
    }

    /// Stores the messages not stored yet and leaves the stored ones as they are; returns the ids added, in input
    /// order, and the positions in `messages` of those already stored. One index lookup per message, where checking
    /// `messageIndex` first and then adding would make two.
    public func addMessagesKeepingStored(_ messages: [StoreMessage]) throws -> (added: [MessageId], stored: [Int]) {
        try add(messages, replacingStored: false)
    }

    private func add(_ messages: [StoreMessage], replacingStored: Bool) throws -> (added: [MessageId], stored: [Int]) {
        try checkWritable()
        var ids: [MessageId] = []
        var stored: [Int] = []
        ids.reserveCapacity(messages.count)
        for (position, message) in messages.enumerated() {
            let id: MessageId
            switch message.id {
            case .id(let full): id = full
            case .partial(let peerId, let namespace):
                try flushNamespace(peerId, namespace)
                id = MessageId(
                    peerId: peerId, namespace: namespace, id: try tables.historyMetadata.takeNextId(peerId, namespace))
            }
            let entry = MessageHistoryIndexTable.Entry(
                timestamp: message.timestamp, flags: message.flags, tags: message.tags)
            var stable: (id: UInt32, version: UInt32)?
            if try !tables.messageIndex.insertIfAbsent(id, entry) {
                guard replacingStored else {
                    stored.append(position)
                    continue
                }
                // Re-adding an existing message replaces it, as a new version of the same message: it keeps its
                // stable id, so views show it in place (a message the difference brings again after a send
                // replaced its local copy is the same message).
                if let existing = try tables.messageIndex.get(id), let old = try removeMessage(id, entry: existing) {
                    stable = (old.stableId, old.stableVersion &+ 1)
                }
                try tables.messageIndex.set(id, entry)
            }
            let record = MessageRecord(
                stableId: try stable?.id ?? takeStableId(), stableVersion: stable?.version ?? 0, id: id,
                timestamp: message.timestamp,
                globallyUniqueId: message.globallyUniqueId, groupingKey: message.groupingKey,
                threadId: message.threadId, flags: message.flags, tags: message.tags, authorId: message.authorId,
                text: message.text, attributes: message.attributes, embeddedMedia: message.media,
                referencedMedia: message.media.compactMap(\.id))
            try insert(record, indexStored: true)
            ids.append(id)
        }
        return (ids, stored)
    }

    /// Raises the chat namespace's highest added id to `id` (one hash of the chat and namespace when it is known).
    private func noteMaxId(_ id: MessageId) {
        let key = ChatNamespace(peerId: id.peerId, namespace: id.namespace)
        if let position = namespaceMaxIds.index(forKey: key) {
            if namespaceMaxIds.values[position] < id.id { namespaceMaxIds.values[position] = id.id }
        } else {
            namespaceMaxIds[key] = id.id
            namespacesWithMaxIds.insert(id.namespace)
        }
    }

    func takeStableId() throws -> UInt32 {
        let next = try nextStableId ?? tables.metadata.takeNextStableId()
        nextStableId = next &+ 1
        return next
    }

    private func insert(_ record: MessageRecord, indexStored: Bool = false) throws {
        let id = record.id
        let (historyRowId, keyWasTaken) = try tables.history.insert(record)
        // A history row was left under this key (an inconsistent file): so may its text row be.
        if keyWasTaken { try tables.textIndex.remove(historyRowId: historyRowId) }
        if !indexStored {
            try tables.messageIndex.set(id, .init(timestamp: record.timestamp, flags: record.flags, tags: record.tags))
        }
        if !record.tags.isEmpty { try tables.tags.add(record.tags, record.index) }
        try tables.textIndex.add(id, historyRowId: historyRowId, text: record.text, tags: record.tags)
        try addMediaReferences(record.embeddedMedia)
        if let globallyUniqueId = record.globallyUniqueId { try tables.globallyUniqueIds.set(globallyUniqueId, id) }
        try tables.globalMessageIds.add(id)
        if record.flags.contains(.unsent) && !record.flags.contains(.failed) {
            try tables.unsent.add(id)
            operations.unsentOperations.append(.insert(id))
        }
        noteMaxId(id)
        try noteInsertedForReadState(record)
        touchedChatListPeers.insert(id.peerId)
        if rendersMessages(of: id.peerId) {
            operations.append(.insertMessage(try render(record)), peerId: id.peerId)
            renderedMessageCount += 1
        } else {
            operations.noteChanged(id.peerId)
        }
    }

    /// Whether the operations record carries this chat's inserted and updated messages (see
    /// `renderedMessagePeers`); a chat left out still gets its (empty) entry in `currentOperationsByPeerId`.
    private func rendersMessages(of peerId: PeerId) -> Bool {
        guard let peers = renderedMessagePeers else { return true }
        return peers.contains(peerId)
    }

    /// Removes a message from every table; returns its record (nil if the history row was already gone).
    @discardableResult
    private func removeMessage(_ id: MessageId, entry: MessageHistoryIndexTable.Entry) throws -> MessageRecord? {
        let index = MessageIndex(id: id, timestamp: entry.timestamp)
        let stored = try tables.history.getWithRowId(index)
        let record = stored?.record
        if let stored {
            try tables.textIndex.remove(historyRowId: stored.rowId)
        } else {
            // No record to find its text row by (an inconsistent file): the chat's rows without records go.
            try tables.textIndex.removeRowsWithoutRecords(of: id.peerId, history: tables.history.table)
        }
        try tables.history.remove(index)
        try tables.messageIndex.remove(id)
        try tables.globalMessageIds.remove(id)
        if !entry.tags.isEmpty { try tables.tags.remove(entry.tags, index) }
        if let record {
            for mediaId in record.referencedMedia { try tables.media.removeReference(mediaId) }
            if let globallyUniqueId = record.globallyUniqueId {
                try tables.globallyUniqueIds.remove(id.peerId, globallyUniqueId)
            }
        }
        if entry.flags.contains(.unsent) && !entry.flags.contains(.failed) {
            try tables.unsent.remove(id)
            operations.unsentOperations.append(.remove(id))
        }
        try noteRemovedForReadState(id, flags: entry.flags)
        touchedChatListPeers.insert(id.peerId)
        operations.append(.remove([(index, entry.tags)]), peerId: id.peerId)
        return record
    }

    /// Deletes messages by id (missing ids are ignored).
    public func deleteMessages(_ ids: [MessageId]) throws {
        try checkWritable()
        for id in ids {
            if let entry = try tables.messageIndex.get(id) { try removeMessage(id, entry: entry) }
        }
    }

    /// Deletes the messages of a chat namespace with ids in `minId...maxId`.
    public func deleteMessagesInRange(peerId: PeerId, namespace: MessageId.Namespace, minId: Int32, maxId: Int32) throws
    {
        try checkWritable()
        guard minId <= maxId else { return }
        for (id, entry) in try tables.messageIndex.entries(peerId: peerId, namespace: namespace, ids: minId...maxId) {
            try removeMessage(id, entry: entry)
        }
    }

    /// Rewrites a message through `update`; a changed timestamp or id moves it in history.
    public func updateMessage(_ id: MessageId, update: (Message) throws -> StoreMessage) throws {
        try checkWritable()
        guard let entry = try tables.messageIndex.get(id),
            let (rowId, record) = try tables.history.getWithRowId(MessageIndex(id: id, timestamp: entry.timestamp))
        else { throw PostboxError.messageNotFound(id) }
        let updated = try update(try render(record))
        let newId: MessageId
        switch updated.id {
        case .id(let full): newId = full
        case .partial: newId = id
        }
        if newId != id || updated.timestamp != record.timestamp {
            try removeMessage(id, entry: entry)
            var moved = updated
            moved.id = .id(newId)
            let newRecord = MessageRecord(
                stableId: record.stableId, stableVersion: record.stableVersion &+ 1, id: newId,
                timestamp: updated.timestamp, globallyUniqueId: updated.globallyUniqueId,
                groupingKey: updated.groupingKey, threadId: updated.threadId, flags: updated.flags, tags: updated.tags,
                authorId: updated.authorId, text: updated.text, attributes: updated.attributes,
                embeddedMedia: updated.media, referencedMedia: updated.media.compactMap(\.id))
            if let existing = try tables.messageIndex.get(newId) { try removeMessage(newId, entry: existing) }
            try insert(newRecord)
            return
        }
        let newRecord = MessageRecord(
            stableId: record.stableId, stableVersion: record.stableVersion &+ 1, id: id, timestamp: record.timestamp,
            globallyUniqueId: updated.globallyUniqueId, groupingKey: updated.groupingKey, threadId: updated.threadId,
            flags: updated.flags, tags: updated.tags, authorId: updated.authorId, text: updated.text,
            attributes: updated.attributes, embeddedMedia: updated.media,
            referencedMedia: updated.media.compactMap(\.id))
        try replaceInPlace(old: record, oldEntry: entry, new: newRecord, rowId: rowId)
    }

    /// Rewrites the record in row `rowId` under the same index (`set` keeps the row, so its text row keeps the rowid).
    private func replaceInPlace(
        old: MessageRecord, oldEntry: MessageHistoryIndexTable.Entry, new: MessageRecord, rowId: Int64
    ) throws {
        let id = new.id
        let textChanged = old.text != new.text || old.tags != new.tags
        if textChanged { try tables.textIndex.remove(historyRowId: rowId) }
        try tables.history.set(new)
        try tables.messageIndex.set(id, .init(timestamp: new.timestamp, flags: new.flags, tags: new.tags))
        if old.tags != new.tags {
            try tables.tags.remove(old.tags, old.index)
            try tables.tags.add(new.tags, new.index)
        }
        // The old text row went above; a text edited away leaves nothing to add (nor to clear again).
        if textChanged, !new.text.isEmpty {
            try tables.textIndex.add(id, historyRowId: rowId, text: new.text, tags: new.tags)
        }
        try addMediaReferences(new.embeddedMedia)
        for mediaId in old.referencedMedia { try tables.media.removeReference(mediaId) }
        if old.globallyUniqueId != new.globallyUniqueId {
            if let previous = old.globallyUniqueId { try tables.globallyUniqueIds.remove(id.peerId, previous) }
            if let current = new.globallyUniqueId { try tables.globallyUniqueIds.set(current, id) }
        }
        let wasUnsent = old.flags.contains(.unsent) && !old.flags.contains(.failed)
        let isUnsent = new.flags.contains(.unsent) && !new.flags.contains(.failed)
        if wasUnsent != isUnsent {
            if isUnsent { try tables.unsent.add(id) } else { try tables.unsent.remove(id) }
            operations.unsentOperations.append(isUnsent ? .insert(id) : .remove(id))
        }
        if old.flags.contains(.incoming) != new.flags.contains(.incoming) {
            try noteRemovedForReadState(id, flags: old.flags)
            try noteInsertedForReadState(new)
        }
        touchedChatListPeers.insert(id.peerId)
        if rendersMessages(of: id.peerId) {
            operations.append(.updateMessage(try render(new)), peerId: id.peerId)
            renderedMessageCount += 1
        } else {
            operations.noteChanged(id.peerId)
        }
    }

    /// Counts references to shared media; a message carrying a newer version of shared media replaces the stored
    /// one, which is recorded as a media update (other messages show it too).
    private func addMediaReferences(_ media: [Media]) throws {
        for item in media {
            if let mediaId = item.id, try tables.media.addReference(item, id: mediaId) {
                operations.updatedMedia[mediaId] = item
            }
        }
    }

    /// A stored message, with its author and current shared media.
    public func getMessage(_ id: MessageId) throws -> Message? {
        guard let entry = try tables.messageIndex.get(id),
            let record = try tables.history.get(MessageIndex(id: id, timestamp: entry.timestamp))
        else { return nil }
        return try render(record)
    }

    /// A message's index, when stored.
    public func messageIndex(_ id: MessageId) throws -> MessageIndex? {
        try tables.messageIndex.get(id).map { MessageIndex(id: id, timestamp: $0.timestamp) }
    }

    /// The stored messages that global message ids name (see `GlobalMessageIdsNamespace`), in the order given;
    /// ids not stored are left out.
    public func messageIds(globalIds ids: [Int32], namespace: MessageId.Namespace) throws -> [MessageId] {
        try ids.compactMap { id in
            guard let peerId = try tables.globalMessageIds.get(id) else { return nil }
            let messageId = MessageId(peerId: peerId, namespace: namespace, id: id)
            return try tables.messageIndex.get(messageId) == nil ? nil : messageId
        }
    }

    /// Deletes the stored messages that global message ids name (`updateDeleteMessages`); returns their ids.
    @discardableResult
    public func deleteMessages(globalIds ids: [Int32], namespace: MessageId.Namespace) throws -> [MessageId] {
        let found = try messageIds(globalIds: ids, namespace: namespace)
        try deleteMessages(found)
        return found
    }

    /// The message sent with `globallyUniqueId` in a chat.
    public func messageId(peerId: PeerId, globallyUniqueId: Int64) throws -> MessageId? {
        try tables.globallyUniqueIds.get(peerId, globallyUniqueId)
    }

    func render(_ record: MessageRecord) throws -> Message {
        var media = record.embeddedMedia
        if !record.referencedMedia.isEmpty {
            for (position, item) in media.enumerated() {
                if let mediaId = item.id, let current = try tables.media.get(mediaId) { media[position] = current }
            }
        }
        return Message(
            stableId: record.stableId, stableVersion: record.stableVersion, id: record.id,
            globallyUniqueId: record.globallyUniqueId, groupingKey: record.groupingKey, threadId: record.threadId,
            timestamp: record.timestamp, flags: record.flags, tags: record.tags, authorId: record.authorId,
            author: try record.authorId.flatMap { try getPeer($0) }, text: record.text,
            attributes: record.attributes, media: media)
    }
}
