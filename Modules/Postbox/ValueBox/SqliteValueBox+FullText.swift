import SQLite

/// Full-text tables on FTS5 with `unicode61 remove_diacritics 2`, so "pho" finds "phở" (Telegram-iOS Postbox FTS).
extension SqliteValueBox {
    private func ensure(_ table: ValueBoxFullTextTable) throws(SQLiteError) {
        let tokenize = "tokenize = 'unicode61 remove_diacritics 2'"
        let definition =
            switch table.rows {
            case .byItemId: "collectionId, itemId, contents, tags, \(tokenize)"
            case .byRowId: "collectionId, contents, tags, \(tokenize), content='', contentless_delete=1"
            }
        try database.execute("CREATE VIRTUAL TABLE IF NOT EXISTS \(table.sqlName) USING fts5(\(definition))")
        try refreshKnownTables()
    }

    /// Drops the full-text table (when it exists), so the next write creates it with `table`'s columns: a schema
    /// upgrade that changes them rebuilds the rows afterwards.
    public func fullTextDrop(_ table: ValueBoxFullTextTable) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            forgetStatements(table.id)
            fullTextRowIdCeilings[table.id] = nil
            try database.execute("DROP TABLE IF EXISTS \(table.sqlName)")
            try refreshKnownTables()
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

    /// Indexes `contents` in `collectionId` as the row `rowId` of a `.byRowId` table, replacing any row there: the
    /// caller chooses rowids (Postbox uses the message record's rowid, so a search resolves each hit with one lookup).
    /// A contentless table has no content table whose key would refuse a taken rowid, so a plain insert under a taken
    /// one would index a second row there: a rowid at or below the highest the table has held (`fullTextRowIdCeiling`)
    /// is inserted with `INSERT OR REPLACE`, which looks for an old row first; one above it cannot be taken and is
    /// inserted plainly (the common case: a new record's rowid is above every older one).
    public func fullTextSet(
        _ table: ValueBoxFullTextTable, rowId: Int64, collectionId: String, contents: String, tags: String
    ) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            func sql(_ verb: String) -> String {
                "\(verb) INTO \(table.sqlName) (rowid, collectionId, contents, tags) VALUES (?, ?, ?, ?)"
            }
            func prepared(replacing: Bool) throws(SQLiteError) -> Statement {
                replacing
                    ? try self.statement(table.id, .fullTextInsertWithRowId, sql("INSERT OR REPLACE"))
                    : try self.statement(table.id, .fullTextInsertAboveRows, sql("INSERT"))
            }
            let ceiling = try fullTextRowIdCeiling(table)
            let statement: Statement
            do {
                statement = try prepared(replacing: rowId <= ceiling)
            } catch {
                try ensure(table)
                statement = try prepared(replacing: rowId <= ceiling)
            }
            statement.bind(1, rowId)
            statement.bind(2, collectionId)
            statement.bind(3, contents)
            statement.bind(4, tags)
            try statement.run()
            fullTextRowIdCeilings[table.id] = max(ceiling, rowId)
        }
    }

    /// The highest rowid `table` has held: read from FTS5's per-row size table (0 when the table does not exist yet),
    /// then raised by this connection's inserts; read again after a rollback or another connection's commit.
    private func fullTextRowIdCeiling(_ table: ValueBoxFullTextTable) throws(SQLiteError) -> Int64 {
        if let known = fullTextRowIdCeilings[table.id] { return known }
        let sizes = table.sqlName + "_docsize"
        let highest = tableExists(sizes) ? try database.scalarInt("SELECT ifnull(max(id), 0) FROM \(sizes)") ?? 0 : 0
        fullTextRowIdCeilings[table.id] = highest
        return highest
    }

    /// Makes sure row `rowId` of a `.byRowId` table holds no text: a row there is removed when the table may hold one
    /// (at or below the highest rowid it has held); above that nothing is done. For a record stored without text whose
    /// rowid a damaged file's text row may have kept.
    public func fullTextClear(_ table: ValueBoxFullTextTable, rowId: Int64) throws(ValueBoxError) {
        let held = try wrap { () throws(SQLiteError) -> Bool in rowId <= (try fullTextRowIdCeiling(table)) }
        if held { try fullTextRemove(table, rowId: rowId) }
    }

    /// Removes the rows of a `.byRowId` table in `collectionId` whose rowid no row of `records` has: the text rows a
    /// damaged file left without their records (found through the collection's term; the rest of the table is not
    /// read).
    public func fullTextRemove(
        _ table: ValueBoxFullTextTable, collectionId: String, rowsMissingFrom records: ValueBoxTable
    ) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            // Not cached: the statement names `records`, and it runs only for a damaged file.
            guard
                let statement = try? database.prepare(
                    "DELETE FROM \(table.sqlName) WHERE rowid IN (SELECT rowid FROM \(table.sqlName) "
                        + "WHERE \(table.sqlName) MATCH ?) AND rowid NOT IN (SELECT rowid FROM \(records.sqlName))")
            else { return }
            statement.bind(1, "collectionId:" + Self.phrase(collectionId))
            try statement.run()
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

    /// Removes every row of a `.byItemId` table indexed under `itemId`, looked up through the index (a `.byRowId`
    /// table keeps no item ids: nothing is removed there).
    public func fullTextRemove(_ table: ValueBoxFullTextTable, itemId: String) throws(ValueBoxError) {
        guard table.rows == .byItemId else { return }
        try wrap { () throws(SQLiteError) in
            guard
                let statement = try? statement(
                    table.id, .fullTextRemove,
                    "DELETE FROM \(table.sqlName) WHERE rowid IN (SELECT rowid FROM \(table.sqlName) "
                        + "WHERE \(table.sqlName) MATCH ?)")
            else { return }
            statement.bind(1, "itemId:" + Self.phrase(itemId))
            try statement.run()
        }
    }

    /// Item ids of a `.byItemId` table whose contents contain every word of `query` as a word prefix (diacritics and
    /// case ignored), optionally only in `collectionId` and only with all `tags` tokens; newest insertions first.
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
