import SQLite

/// Full-text tables on FTS5 with `unicode61 remove_diacritics 2`, so "pho" finds "phở" (Telegram-iOS Postbox FTS).
extension SqliteValueBox {
    private func ensure(_ table: ValueBoxFullTextTable) throws(SQLiteError) {
        try database.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS \(table.sqlName) USING fts5("
                + "collectionId, itemId, contents, tags, tokenize = 'unicode61 remove_diacritics 2')")
    }

    /// Indexes `contents` under `itemId` in `collectionId`, with space-separated `tags` tokens.
    ///
    /// Adds a row; to replace an item's text, call `fullTextRemove` first.
    public func fullTextSet(
        _ table: ValueBoxFullTextTable, collectionId: String, itemId: String, contents: String, tags: String
    ) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            let sql = "INSERT INTO \(table.sqlName) (collectionId, itemId, contents, tags) VALUES (?, ?, ?, ?)"
            let statement: Statement
            do {
                statement = try self.statement(table.id, .fullTextInsert, sql)
            } catch {
                try ensure(table)
                statement = try self.statement(table.id, .fullTextInsert, sql)
            }
            statement.bind(1, collectionId)
            statement.bind(2, itemId)
            statement.bind(3, contents)
            statement.bind(4, tags)
            try statement.run()
        }
    }

    /// Removes every row indexed under `itemId` (looked up through the index, not by a scan).
    public func fullTextRemove(_ table: ValueBoxFullTextTable, itemId: String) throws(ValueBoxError) {
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
