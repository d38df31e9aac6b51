import ValueBox

/// Reading history in index order across a chat's message namespaces, and full-text search.
extension Transaction {
    /// The message namespaces a chat has used.
    public func messageNamespaces(peerId: PeerId) throws -> [MessageId.Namespace] {
        var namespaces = Set(try tables.historyMetadata.namespaces(peerId))
        for namespace in namespacesWithMaxIds
        where namespaceMaxIds[ChatNamespace(peerId: peerId, namespace: namespace)] != nil {
            namespaces.insert(namespace)
        }
        return namespaces.sorted()
    }

    /// Up to `count` messages older than `index` (exclusive; from the newest when `nil`), newest first, across
    /// namespaces; with `tag`, only messages carrying it.
    public func earlierMessages(
        peerId: PeerId, before index: MessageIndex?, count: Int, tag: MessageTags? = nil
    )
        throws -> [Message]
    {
        try walk(peerId: peerId, anchor: index, earlier: true, count: count, tag: tag)
    }

    /// Up to `count` messages newer than `index` (exclusive; from the oldest when `nil`), oldest first.
    public func laterMessages(
        peerId: PeerId, after index: MessageIndex?, count: Int, tag: MessageTags? = nil
    )
        throws -> [Message]
    {
        try walk(peerId: peerId, anchor: index, earlier: false, count: count, tag: tag)
    }

    /// About `count` messages around `anchor` (the anchor included when stored), oldest first: half before, the
    /// rest after, and more on one side when the other runs out.
    public func messagesAround(peerId: PeerId, anchor: MessageIndex, count: Int) throws -> [Message] {
        let anchorMessage = try getMessage(anchor.id).flatMap { $0.index == anchor ? $0 : nil }
        let remaining = max(0, count - (anchorMessage == nil ? 0 : 1))
        let half = remaining / 2
        // Ask each side for its half; fetch more from one side only when the other ran short.
        var earlier = try earlierMessages(peerId: peerId, before: anchor, count: half)
        var later = try laterMessages(peerId: peerId, after: anchor, count: remaining - half)
        if later.count < remaining - half && earlier.count == half {
            earlier = try earlierMessages(peerId: peerId, before: anchor, count: remaining - later.count)
        } else if earlier.count < half && later.count == remaining - half {
            later = try laterMessages(peerId: peerId, after: anchor, count: remaining - earlier.count)
        }
        return earlier.reversed() + (anchorMessage.map { [$0] } ?? []) + later
    }

    private func walk(
        peerId: PeerId, anchor: MessageIndex?, earlier: Bool, count: Int, tag: MessageTags?
    )
        throws -> [Message]
    {
        guard count > 0 else { return [] }
        var records: [MessageRecord] = []
        for namespace in try messageNamespaces(peerId: peerId) {
            if let tag, let first = tag.singleTags.first {
                // Tagged history reads the tag index (Telegram-iOS Postbox MessageHistoryTagsTable), not every record;
                // for several tags it walks the first and keeps the records that carry all of them.
                var from = anchor
                var found = 0
                while found < count {
                    let indices = try tables.tags.walk(
                        peerId: peerId, tag: first, namespace: namespace, from: from, earlier: earlier, count: count)
                    for index in indices {
                        if let record = try tables.history.get(index), record.tags.contains(tag) {
                            records.append(record)
                            found += 1
                        }
                    }
                    guard indices.count == count, let last = indices.last else { break }
                    from = last
                }
            } else {
                records += try tables.history.walk(
                    peerId: peerId, namespace: namespace, from: anchor, earlier: earlier, count: count)
            }
        }
        records.sort { earlier ? $0.index > $1.index : $0.index < $1.index }
        return try records.prefix(count).map(render)
    }

    /// Whether the chat has any message stored in `namespace`, without reading a record.
    public func hasMessages(peerId: PeerId, namespace: MessageId.Namespace) throws -> Bool {
        try tables.messageIndex.hasMessages(peerId: peerId, namespace: namespace)
    }

    /// The newest message index of a chat.
    public func topMessageIndex(peerId: PeerId) throws -> MessageIndex? {
        var best: MessageIndex?
        for namespace in try messageNamespaces(peerId: peerId) {
            if let record = try tables.history.walk(
                peerId: peerId, namespace: namespace, from: nil, earlier: true, count: 1
            ).first, best == nil || best! < record.index {
                best = record.index
            }
        }
        return best
    }

    /// Number of messages with `tag` in a chat.
    public func messageCount(peerId: PeerId, tag: MessageTags) throws -> Int {
        try tables.tags.count(peerId: peerId, tag: tag)
    }

    /// Messages whose text contains every word of `query` as a word prefix, ignoring case and diacritics
    /// ("pho" finds "phở"), optionally in one chat and with all of `tags`; newest first.
    public func searchMessages(
        _ query: String, peerId: PeerId? = nil, tags: MessageTags? = nil, limit: Int
    )
        throws -> [Message]
    {
        // Each hit is the rowid of its message's record: one lookup, no item id, id index or key index read.
        let rowIds = try tables.textIndex.search(query, peerId: peerId, tags: tags, limit: limit)
        return try rowIds.compactMap { try tables.history.get(rowId: $0).map(render) }.sorted { $0.index > $1.index }
    }

    /// Visits every stored message record in key order (for export and verification); `body` returns `false` to
    /// stop. Undecodable records throw.
    public func scanMessages(_ body: (Message) throws -> Bool) throws {
        var failure: Error?
        try tables.valueBox.scan(tables.history.table) { key, value in
            do {
                let index = MessageHistoryTable.index(key)
                return try body(try render(try tables.history.decode(value, index)))
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
    }
}

/// Albums: consecutive messages of a chat that share a grouping key.
extension Transaction {
    /// The album `id` belongs to, oldest first (just the message when it has no grouping key; `nil` when absent).
    public func getMessageGroup(_ id: MessageId) throws -> [Message]? {
        guard let message = try getMessage(id) else { return nil }
        guard let groupingKey = message.groupingKey else { return [message] }
        // Albums hold at most 10 items; look a little further to be safe with interleaved namespaces.
        let earlier = try earlierMessages(peerId: id.peerId, before: message.index, count: 10)
            .prefix { $0.groupingKey == groupingKey }
        let later = try laterMessages(peerId: id.peerId, after: message.index, count: 10)
            .prefix { $0.groupingKey == groupingKey }
        return earlier.reversed() + [message] + later
    }
}
