import ValueBox

/// FTS table 41: message text under collection `p<peer>`, with a `t<tag>` token per tag (Telegram-iOS Postbox FTS,
/// whose rows also carry an item id `p<peer>a<namespace>b<id>`). Each row's rowid is the rowid of the message's record
/// in the history table (schema version 4 on; ours, not Telegram's), so a search resolves a hit with one lookup by
/// rowid instead of reading the item id, the id index and the history key index, and a row is removed by that rowid.
/// So the table needs no item ids and no copy of the text it indexes, which the record holds: it is contentless
/// (`ValueBoxFullTextTable.Rows.byRowId`, schema version 6 on), and a message costs its words' terms alone.
final class TextIndexTable {
    let valueBox: SqliteValueBox
    let table = ValueBoxFullTextTable(id: 41, rows: .byRowId)

    init(valueBox: SqliteValueBox) {
        self.valueBox = valueBox
    }

    static func collectionId(_ peerId: PeerId) -> String {
        ASCIIDigits.string(capacity: 21) { out in
            out.append(UInt8(ascii: "p"))
            out.appendDecimal(UInt64(bitPattern: peerId.toInt64()))
        }
    }

    static func tagToken(_ tag: MessageTags) -> String { "t\(tag.rawValue)" }

    /// The `tags` column: one token per single tag, space-separated ("" for none, the common case).
    static func tagTokens(_ tags: MessageTags) -> String {
        tags.isEmpty ? "" : tags.singleTags.map(tagToken).joined(separator: " ")
    }

    /// Indexes a message's text as the row `historyRowId` (its record's rowid in the history table).
    func add(_ id: MessageId, historyRowId: Int64, text: String, tags: MessageTags) throws {
        guard !text.isEmpty else {
            // No text to index, and none may stay at this rowid: a damaged file's text row left behind under it would
            // make this message a hit for another message's words.
            try valueBox.fullTextClear(table, rowId: historyRowId)
            return
        }
        try valueBox.fullTextSet(
            table, rowId: historyRowId, collectionId: Self.collectionId(id.peerId), contents: text,
            tags: Self.tagTokens(tags))
    }

    /// Removes the chat's text rows that no history record has: for a message whose record is missing (a damaged
    /// file), whose row cannot be found by its rowid.
    func removeRowsWithoutRecords(of peerId: PeerId, history: ValueBoxTable) throws {
        try valueBox.fullTextRemove(table, collectionId: Self.collectionId(peerId), rowsMissingFrom: history)
    }

    /// Removes the text row of the history record in row `historyRowId`.
    func remove(historyRowId: Int64) throws {
        try valueBox.fullTextRemove(table, rowId: historyRowId)
    }

    /// Drops the table, so the next row creates it with this build's columns (the 5→6 schema upgrade).
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
