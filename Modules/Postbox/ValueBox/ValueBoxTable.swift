/// A key-value table `t<id>` (Telegram-iOS Postbox `ValueBoxTable`).
public struct ValueBoxTable: Hashable, Sendable {
    /// How keys are stored.
    public enum KeyType: Sendable {
        /// `key BLOB PRIMARY KEY`, ordered by `memcmp`.
        case binary
        /// `key INTEGER PRIMARY KEY`; keys are 8-byte `ValueBoxKey`s, ordered as signed integers.
        case int64
    }

    /// The table's number; the SQL table is `t<id>`.
    public let id: Int32
    /// Binary or int64 keys.
    public let keyType: KeyType
    /// Create the table `WITHOUT ROWID` (values stored in the key's b-tree; for small values).
    public let compactValuesOnCreation: Bool

    /// A table description.
    public init(id: Int32, keyType: KeyType, compactValuesOnCreation: Bool) {
        self.id = id
        self.keyType = keyType
        self.compactValuesOnCreation = compactValuesOnCreation
    }

    var sqlName: String { "t\(id)" }
}

/// A full-text table `ft<id>` on FTS5 with columns (collectionId, itemId, contents, tags).
public struct ValueBoxFullTextTable: Hashable, Sendable {
    /// The table's number; the SQL table is `ft<id>`.
    public let id: Int32
    /// Whether FTS5 indexes the item ids, so `fullTextRemove(_:itemId:)` finds a row through the index. A table whose
    /// caller chooses the rowids (`fullTextSet(_:rowId:...)`) and removes by rowid needs no such index: its item ids
    /// are stored `UNINDEXED`, and each row adds no term of its own to the index.
    public let indexesItemIds: Bool

    /// A full-text table description.
    public init(id: Int32, indexesItemIds: Bool = true) {
        self.id = id
        self.indexesItemIds = indexesItemIds
    }

    var sqlName: String { "ft\(id)" }
}
