import ValueBox

/// Table 7: message records under `peerId ‖ namespace ‖ timestamp ‖ id` (20 bytes, big-endian), so each
/// namespace of a chat is stored in time order (Telegram-iOS Postbox).
final class MessageHistoryTable: Table {
    static func key(_ index: MessageIndex) -> ValueBoxKey {
        var key = ValueBoxKey(length: 20)
        key.setInt64(0, value: index.id.peerId.toInt64())
        key.setInt32(8, value: index.id.namespace)
        key.setInt32(12, value: index.timestamp)
        key.setInt32(16, value: index.id.id)
        return key
    }

    static func index(_ key: ValueBoxKey) -> MessageIndex {
        MessageIndex(
            id: MessageId(peerId: PeerId(key.getInt64(0)), namespace: key.getInt32(8), id: key.getInt32(16)),
            timestamp: key.getInt32(12))
    }

    func get(_ index: MessageIndex) throws -> MessageRecord? {
        guard let bytes = try valueBox.get(table, key: Self.key(index)) else { return nil }
        return try decode(bytes, index)
    }

    /// The record at `index` and its row's rowid (the text index's row for it), in one lookup.
    func getWithRowId(_ index: MessageIndex) throws -> (rowId: Int64, record: MessageRecord)? {
        guard let (rowId, bytes) = try valueBox.getWithRowId(table, key: Self.key(index)) else { return nil }
        return (rowId, try decode(bytes, index))
    }

    func decode(_ bytes: [UInt8], _ index: MessageIndex) throws -> MessageRecord {
        do {
            return try MessageRecord.decode(bytes, id: index.id, timestamp: index.timestamp)
        } catch {
            throw PostboxError.undecodableRecord(table: table.id, detail: "message \(index.id): \(error)")
        }
    }

    /// Rewrites a stored record in place (its rowid stays), or stores a new one.
    func set(_ record: MessageRecord) throws {
        try valueBox.set(table, key: Self.key(record.index), value: record.encode())
    }

    /// Stores a new record and returns its row's rowid, which the text index uses as its own rowid; a row left under
    /// its key (an inconsistent file: the id index did not have it) is rewritten in place, and `keyWasTaken` says so.
    func insert(_ record: MessageRecord) throws -> (rowId: Int64, keyWasTaken: Bool) {
        try valueBox.insertReturningRowId(table, key: Self.key(record.index), value: record.encode())
    }

    /// The rowid of the record at `index`, or `nil`.
    func rowId(_ index: MessageIndex) throws -> Int64? {
        try valueBox.rowId(table, key: Self.key(index))
    }

    /// The record in the row `rowId`, or `nil`.
    func get(rowId: Int64) throws -> MessageRecord? {
        guard let (key, value) = try valueBox.get(table, rowId: rowId), key.length == 20 else { return nil }
        return try decode(value, Self.index(key))
    }

    func remove(_ index: MessageIndex) throws {
        try valueBox.remove(table, key: Self.key(index))
    }

    /// Records of one namespace of a chat, walking away from `anchor` (exclusive) towards older messages when
    /// `earlier`, newer otherwise, until `count` records pass `filter`.
    func walk(
        peerId: PeerId, namespace: Int32, from anchor: MessageIndex?, earlier: Bool, count: Int,
        filter: (MessageIndex) -> Bool = { _ in true }
    ) throws -> [MessageRecord] {
        let prefix = Keys.peerNamespace(peerId, namespace)
        let lower = prefix
        let upper = prefix.successor
        let start: ValueBoxKey
        let end: ValueBoxKey
        if let anchor {
            // Start at the anchor's whole timestamp (exclusive bounds) and filter by full index order, since
            // several messages can share a timestamp.
            var withTimestamp = prefix + ValueBoxKey(length: 4)
            withTimestamp.setInt32(12, value: anchor.timestamp)
            start = earlier ? withTimestamp.successor : withTimestamp
        } else {
            start = earlier ? upper : lower
        }
        end = earlier ? lower : upper
        var result: [MessageRecord] = []
        var failure: Error?
        guard count > 0 else { return [] }
        try valueBox.range(table, start: start, end: end) { key, value in
            let index = Self.index(key)
            if let anchor, earlier ? !(index < anchor) : !(anchor < index) { return true }
            guard filter(index) else { return true }
            do { result.append(try decode(value, index)) } catch { failure = error; return false }
            return result.count < count
        }
        if let failure { throw failure }
        return result
    }
}

/// Table 4: `peerId ‖ namespace ‖ id` → timestamp, flags and tags, to find a message's history key by id and to
/// count unread messages without reading records (Telegram-iOS Postbox `MessageHistoryIndexTable`).
final class MessageHistoryIndexTable: Table {
    struct Entry: Equatable {
        let timestamp: Int32
        let flags: MessageFlags
        let tags: MessageTags
    }

    func get(_ id: MessageId) throws -> Entry? {
        guard let bytes = try valueBox.get(table, key: Keys.messageId(id)) else { return nil }
        return Self.entry(bytes)
    }

    static func entry(_ bytes: [UInt8]) -> Entry? {
        guard bytes.count == 12 else { return nil }
        let value = ValueBoxKey(bytes)
        return Entry(
            timestamp: value.getInt32(0), flags: MessageFlags(rawValue: value.getUInt32(4)),
            tags: MessageTags(rawValue: value.getUInt32(8)))
    }

    private static func encode(_ entry: Entry) -> [UInt8] {
        var value = ValueBoxKey(length: 12)
        value.setInt32(0, value: entry.timestamp)
        value.setUInt32(4, value: entry.flags.rawValue)
        value.setUInt32(8, value: entry.tags.rawValue)
        return value.bytes
    }

    func set(_ id: MessageId, _ entry: Entry) throws {
        try valueBox.set(table, key: Keys.messageId(id), value: Self.encode(entry))
    }

    /// Whether any message of the chat's `namespace` is stored: one seek in this index, no record read.
    func hasMessages(peerId: PeerId, namespace: MessageId.Namespace) throws -> Bool {
        let prefix = Keys.peerNamespace(peerId, namespace)
        var found = false
        try valueBox.range(table, start: prefix, end: prefix.successor, limit: 1) { (_: ValueBoxKey) in
            found = true
            return false
        }
        return found
    }

    /// Adds the entry unless the id is already stored; returns whether it was added.
    func insertIfAbsent(_ id: MessageId, _ entry: Entry) throws -> Bool {
        try valueBox.insertIfAbsent(table, key: Keys.messageId(id), value: Self.encode(entry))
    }

    func remove(_ id: MessageId) throws {
        try valueBox.remove(table, key: Keys.messageId(id))
    }

    /// Entries of a namespace with ids in `ids`, ascending.
    func entries(peerId: PeerId, namespace: Int32, ids: ClosedRange<Int32>) throws -> [(MessageId, Entry)] {
        let prefix = Keys.peerNamespace(peerId, namespace)
        var lower = prefix + ValueBoxKey(length: 4)
        lower.setInt32(12, value: ids.lowerBound)
        var upper = prefix + ValueBoxKey(length: 4)
        upper.setInt32(12, value: ids.upperBound)
        var result: [(MessageId, Entry)] = []
        try valueBox.range(table, start: lower.predecessor, end: ValueBoxKey(upper.bytes + [0])) { key, value in
            if let entry = Self.entry(value) { result.append((Keys.messageIdFromKey(key), entry)) }
            return true
        }
        return result
    }

    /// The greatest id stored in a namespace of a chat.
    func maxId(peerId: PeerId, namespace: Int32) throws -> Int32? {
        let prefix = Keys.peerNamespace(peerId, namespace)
        var result: Int32?
        try valueBox.range(table, start: prefix.successor, end: prefix, limit: 1) { key in
            result = key.getInt32(12)
            return false
        }
        return result
    }
}

/// Table 12: `peerId ‖ tag ‖ namespace ‖ timestamp ‖ id` for each single tag of each message
/// (Telegram-iOS Postbox `MessageHistoryTagsTable`).
final class MessageHistoryTagsTable: Table {
    static func key(_ tag: MessageTags, _ index: MessageIndex) -> ValueBoxKey {
        var key = ValueBoxKey(length: 24)
        key.setInt64(0, value: index.id.peerId.toInt64())
        key.setUInt32(8, value: tag.rawValue)
        key.setInt32(12, value: index.id.namespace)
        key.setInt32(16, value: index.timestamp)
        key.setInt32(20, value: index.id.id)
        return key
    }

    func add(_ tags: MessageTags, _ index: MessageIndex) throws {
        for tag in tags.singleTags { try valueBox.set(table, key: Self.key(tag, index), value: []) }
    }

    func remove(_ tags: MessageTags, _ index: MessageIndex) throws {
        for tag in tags.singleTags { try valueBox.remove(table, key: Self.key(tag, index)) }
    }

    /// The newest `count` indices with `tag` in a chat, newest first.
    func latest(peerId: PeerId, tag: MessageTags, count: Int) throws -> [MessageIndex] {
        var prefix = ValueBoxKey(length: 12)
        prefix.setInt64(0, value: peerId.toInt64())
        prefix.setUInt32(8, value: tag.rawValue)
        var result: [MessageIndex] = []
        try valueBox.range(table, start: prefix.successor, end: prefix, limit: count) { key in
            result.append(
                MessageIndex(
                    id: MessageId(peerId: peerId, namespace: key.getInt32(12), id: key.getInt32(20)),
                    timestamp: key.getInt32(16)))
            return true
        }
        return result.sorted(by: >)
    }

    /// Indices with the single tag `tag` in one namespace of a chat, walking away from `anchor` (exclusive) towards
    /// older messages when `earlier`, newer otherwise, at most `count`.
    func walk(
        peerId: PeerId, tag: MessageTags, namespace: Int32, from anchor: MessageIndex?, earlier: Bool, count: Int
    ) throws -> [MessageIndex] {
        var prefix = ValueBoxKey(length: 16)
        prefix.setInt64(0, value: peerId.toInt64())
        prefix.setUInt32(8, value: tag.rawValue)
        prefix.setInt32(12, value: namespace)
        let start: ValueBoxKey
        if let anchor {
            var withTimestamp = prefix + ValueBoxKey(length: 4)
            withTimestamp.setInt32(16, value: anchor.timestamp)
            start = earlier ? withTimestamp.successor : withTimestamp
        } else {
            start = earlier ? prefix.successor : prefix
        }
        let end = earlier ? prefix : prefix.successor
        var result: [MessageIndex] = []
        guard count > 0 else { return [] }
        try valueBox.range(table, start: start, end: end) { (key: ValueBoxKey) in
            let index = MessageIndex(
                id: MessageId(peerId: peerId, namespace: namespace, id: key.getInt32(20)), timestamp: key.getInt32(16))
            if let anchor, earlier ? !(index < anchor) : !(anchor < index) { return true }
            result.append(index)
            return result.count < count
        }
        return result
    }

    /// Number of messages with `tag` in a chat.
    func count(peerId: PeerId, tag: MessageTags) throws -> Int {
        var prefix = ValueBoxKey(length: 12)
        prefix.setInt64(0, value: peerId.toInt64())
        prefix.setUInt32(8, value: tag.rawValue)
        return try valueBox.count(table, start: prefix.predecessor, end: prefix.successor)
    }
}
