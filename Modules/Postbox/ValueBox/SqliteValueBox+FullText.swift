import SQLite

/// Full-text tables on FTS5 with `unicode61 remove_diacritics 2`, so "pho" finds "phở" (Telegram-iOS Postbox FTS).
extension SqliteValueBox {
    private func ensure(_ table: ValueBoxFullTextTable) throws(SQLiteError) {
        let itemId = table.indexesItemIds ? "itemId" : "itemId UNINDEXED"
        try database.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS \(table.sqlName) USING fts5("
                + "collectionId, \(itemId), contents, tags, tokenize = 'unicode61 remove_diacritics 2')")
    }

    /// Drops the full-text table (when it exists), so the next write creates it with `table`'s columns: a schema
    /// upgrade that changes them rebuilds the rows afterwards.
    public func fullTextDrop(_ table: ValueBoxFullTextTable) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            forgetStatements(table.id)
            try database.execute("DROP TABLE IF EXISTS \(table.sqlName)")
        }
    }

    /// Removes the row `rowId` (nothing when there is none).
    public func fullTextRemove(_ table: ValueBoxFullTextTable, rowId: Int64) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            guard
                let remove = try? statement(
                    table.id, .fullTextRemoveRowId, "DELETE FROM \(table.sqlName) WHERE rowid = ?")
            else { return }
            remove.bind(1, rowId)
            try remove.run()
        }
    }

    /// Indexes `contents` under `itemId` in `collectionId`, with space-separated `tags` tokens.
    ///
    /// Adds a row; to replace an item's text, call `fullTextRemove` first.
    public func fullTextSet(
        _ table: ValueBoxFullTextTable, collectionId: String, itemId: String, contents: String, tags: String
    ) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            func sql() -> String {
                "INSERT INTO \(table.sqlName) (collectionId, itemId, contents, tags) VALUES (?, ?, ?, ?)"
            }
            let statement: Statement
            do {
                statement = try self.statement(table.id, .fullTextInsert, sql())
            } catch {
                try ensure(table)
                statement = try self.statement(table.id, .fullTextInsert, sql())
            }
            statement.bind(1, collectionId)
            statement.bind(2, itemId)
            statement.bind(3, contents)
            statement.bind(4, tags)
            try statement.run()
        }
    }

    /// Indexes `contents` under `itemId` in `collectionId` as the row `rowId`, replacing any row there: the caller
    /// chooses rowids (Postbox uses the message record's rowid, so a search resolves each hit with one lookup and
    /// never reads the text index's own content table). A plain insert; only when the rowid is taken is the old row
    /// deleted first (`INSERT OR REPLACE` would look for an old row on every insert).
    public func fullTextSet(
        _ table: ValueBoxFullTextTable, rowId: Int64, collectionId: String, itemId: String, contents: String,
        tags: String
    ) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            func sql() -> String {
                "INSERT INTO \(table.sqlName) (rowid, collectionId, itemId, contents, tags) VALUES (?, ?, ?, ?, ?)"
            }
            let statement: Statement
            do {
                statement = try self.statement(table.id, .fullTextInsertWithRowId, sql())
            } catch {
                try ensure(table)
                statement = try self.statement(table.id, .fullTextInsertWithRowId, sql())
            }
            func insert() throws(SQLiteError) {
                statement.bind(1, rowId)
                statement.bind(2, collectionId)
                statement.bind(3, itemId)
                statement.bind(4, contents)
                statement.bind(5, tags)
                try statement.run()
            }
            do throws(SQLiteError) {
                try insert()
            } catch {
                guard error.primaryCode == 19 else { throw error }  // SQLITE_CONSTRAINT: the rowid is taken
                let remove = try self.statement(
                    table.id, .fullTextRemoveRowId, "DELETE FROM \(table.sqlName) WHERE rowid = ?")
                remove.bind(1, rowId)
                try remove.run()
                try insert()
            }
        }
    }

    /// Removes every row of the full-text table (when it exists).
    public func fullTextRemoveAll(_ table: ValueBoxFullTextTable) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            guard let statement = try? statement(table.id, .fullTextRemoveAll, "DELETE FROM \(table.sqlName)") else {
                return
            }
            try statement.run()
        }
    }

    /// Removes every row indexed under `itemId`: looked up through the index when the table indexes item ids,
    /// otherwise by a scan of its rows.
    public func fullTextRemove(_ table: ValueBoxFullTextTable, itemId: String) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            let sql =
                table.indexesItemIds
                ? "DELETE FROM \(table.sqlName) WHERE rowid IN (SELECT rowid FROM \(table.sqlName) "
                    + "WHERE \(table.sqlName) MATCH ?)"
                : "DELETE FROM \(table.sqlName) WHERE itemId = ?"
            guard let statement = try? statement(table.id, .fullTextRemove, sql) else { return }
            statement.bind(1, table.indexesItemIds ? "itemId:" + Self.phrase(itemId) : itemId)
            try statement.run()
        }
    }

    /// Item ids whose contents contain every word of `query` as a word prefix (diacritics and case ignored),
    /// optionally only in `collectionId` and only with all `tags` tokens; newest insertions first.
    public func fullTextMatch(
        _ table: ValueBoxFullTextTable, collectionId: String?, query: String, tags: [String] = [], limit: Int
    ) throws(ValueBoxError) -> [String] {
        guard let expression = Self.matchExpression(query: query, collectionId: collectionId, tags: tags) else {
            return []
        }
        return try wrap { () throws(SQLiteError) -> [String] in
            guard
                let statement = try? statement(
                    table.id, .fullTextMatch,
                    "SELECT itemId FROM \(table.sqlName) WHERE \(table.sqlName) MATCH ? ORDER BY rowid DESC LIMIT ?")
            else { return [] }
            defer { statement.reset() }
            statement.bind(1, expression)
            statement.bind(2, Int64(max(0, limit)))
            var result: [String] = []
            while try statement.step() { result.append(statement.text(0)) }
            return result
        }
    }

    /// The rowids of the newest `limit` rows (highest rowid first) whose contents contain every word of `query` as a
    /// word prefix, optionally only in `collectionId` and with all `tags` tokens. FTS5 answers this from its index
    /// alone, without reading its content table.
    public func fullTextMatchRowIds(
        _ table: ValueBoxFullTextTable, collectionId: String?, query: String, tags: [String] = [], limit: Int
    ) throws(ValueBoxError) -> [Int64] {
        guard let expression = Self.matchExpression(query: query, collectionId: collectionId, tags: tags) else {
            return []
        }
        return try wrap { () throws(SQLiteError) -> [Int64] in
            guard
                let statement = try? statement(
                    table.id, .fullTextMatchRowIds,
                    "SELECT rowid FROM \(table.sqlName) WHERE \(table.sqlName) MATCH ? ORDER BY rowid DESC LIMIT ?")
            else { return [] }
            defer { statement.reset() }
            statement.bind(1, expression)
            statement.bind(2, Int64(max(0, limit)))
            var result: [Int64] = []
            while try statement.step() { result.append(statement.int64(0)) }
            return result
        }
    }

    /// The FTS5 query for `query`: each word a quoted prefix phrase in the `contents` column, ANDed with the
    /// collection and tag filters; `nil` when the query has no word.
    public static func matchExpression(query: String, collectionId: String?, tags: [String]) -> String? {
        let words = query.split(whereSeparator: { $0.isWhitespace || $0 == "\"" }).map(String.init)
        guard !words.isEmpty else { return nil }
        var parts = words.map { "contents:" + phrase($0) + "*" }
        if let collectionId { parts.append("collectionId:" + phrase(collectionId)) }
        parts += tags.map { "tags:" + phrase($0) }
        return parts.joined(separator: " AND ")
    }

    /// `text` as an FTS5 string literal (double quotes doubled).
    static func phrase(_ text: String) -> String {
        var result = "\""
        for character in text {
            result.append(character)
            if character == "\"" { result.append("\"") }
        }
        return result + "\""
    }
}
