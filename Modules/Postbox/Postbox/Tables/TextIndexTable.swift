import ValueBox

/// FTS table 41: message text under collection `p<peer>` and item `p<peer>a<namespace>b<id>`, with a `t<tag>`
/// token per tag (Telegram-iOS Postbox FTS). Each row's rowid is the rowid of the message's record in the history
/// table (schema version 4 on; ours, not Telegram's), so a search resolves a hit with one lookup by rowid instead of
/// reading the item id, the id index and the history key index; and a row is removed by that rowid, so the item
/// id is stored unindexed (schema version 5 on): no message adds a term of its own to the index.
final class TextIndexTable {
    let valueBox: SqliteValueBox
    let table = ValueBoxFullTextTable(id: 41, indexesItemIds: false)

    init(valueBox: SqliteValueBox) {
        self.valueBox = valueBox
    }

    static func collectionId(_ peerId: PeerId) -> String {
        ASCIIDigits.string(capacity: 21) { out in
            out.append(UInt8(ascii: "p"))
            out.appendDecimal(UInt64(bitPattern: peerId.toInt64()))
        }
    }

    static func itemId(_ id: MessageId) -> String {
        ASCIIDigits.string(capacity: 47) { out in
            out.append(UInt8(ascii: "p"))
            out.appendDecimal(UInt64(bitPattern: id.peerId.toInt64()))
            out.append(UInt8(ascii: "a"))
            out.appendDecimal(id.namespace)
            out.append(UInt8(ascii: "b"))
            out.appendDecimal(id.id)
        }
    }

    static func tagToken(_ tag: MessageTags) -> String { "t\(tag.rawValue)" }

    /// The `tags` column: one token per single tag, space-separated ("" for none, the common case).
    static func tagTokens(_ tags: MessageTags) -> String {
        tags.isEmpty ? "" : tags.singleTags.map(tagToken).joined(separator: " ")
    }

    /// Parses an item id back into a message id.
    static func messageId(_ itemId: String) -> MessageId? {
        guard itemId.first == "p", let a = itemId.firstIndex(of: "a"), let b = itemId.firstIndex(of: "b") else {
            return nil
        }
        guard let peer = UInt64(itemId[itemId.index(after: itemId.startIndex)..<a]),
            let namespace = Int32(itemId[itemId.index(after: a)..<b]),
            let id = Int32(itemId[itemId.index(after: b)...])
        else { return nil }
        return MessageId(peerId: PeerId(Int64(bitPattern: peer)), namespace: namespace, id: id)
    }

    /// Indexes a message's text as the row `historyRowId` (its record's rowid in the history table).
    func add(_ id: MessageId, historyRowId: Int64, text: String, tags: MessageTags) throws {
        guard !text.isEmpty else { return }
        try valueBox.fullTextSet(
            table, rowId: historyRowId, collectionId: Self.collectionId(id.peerId), itemId: Self.itemId(id),
            contents: text, tags: Self.tagTokens(tags))
    }

    /// Removes the text rows of message `id` found by their item id: a scan of the table (the item ids are not
    /// indexed), for a message whose history record is missing.
    func remove(_ id: MessageId) throws {
        try valueBox.fullTextRemove(table, itemId: Self.itemId(id))
    }

    /// Removes the text row of the history record in row `historyRowId`.
    func remove(historyRowId: Int64) throws {
        try valueBox.fullTextRemove(table, rowId: historyRowId)
    }

    /// Drops the table, so the next row creates it with this build's columns (the 4→5 schema upgrade).
    func drop() throws {
        try valueBox.fullTextDrop(table)
    }

    /// The history rowids of the newest `limit` matching messages, newest insertion first.
    func search(_ query: String, peerId: PeerId?, tags: MessageTags?, limit: Int) throws -> [Int64] {
        try valueBox.fullTextMatchRowIds(
            table, collectionId: peerId.map(Self.collectionId), query: query,
            tags: tags?.singleTags.map(Self.tagToken) ?? [], limit: limit)
    }
}
