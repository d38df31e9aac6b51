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

/// A full-text table `ft<id>` on FTS5.
public struct ValueBoxFullTextTable: Hashable, Sendable {
    /// How a table's rows are numbered and found again.
    public enum Rows: Hashable, Sendable {
        /// FTS5 numbers the rows and keeps a copy of each, with columns (collectionId, itemId, contents, tags); a row
        /// is found by its item id, a term FTS5 indexes (Telegram-iOS Postbox's table).
        case byItemId
        /// The caller numbers the rows (`fullTextSet(_:rowId:…)`) and finds them by number alone. The table is
        /// contentless (FTS5 `content=''`, `contentless_delete=1`; columns collectionId, contents, tags): it keeps no
        /// copy of what it indexes and no item id, so a row costs its terms and nothing else, and a match gives
        /// rowids (`fullTextMatchRowIds`).
        case byRowId
    }

    /// The table's number; the SQL table is `ft<id>`.
    public let id: Int32
    /// How its rows are numbered and found.
    public let rows: Rows

    /// A full-text table description.
    public init(id: Int32, rows: Rows = .byItemId) {
        self.id = id
        self.rows = rows
    }

    var sqlName: String { "ft\(id)" }
}
