public import SQLite

/// The storage engine under Postbox: numbered key-value tables and FTS5 tables in one SQLCipher database
/// (Telegram-iOS Postbox `SqliteValueBox`).
///
/// Every read and write happens inside `begin()`…`commit()` on the queue that owns the box.
/// `@unchecked Sendable`: the box is confined to its owner's queue (Postbox's writer queue, or one reader queue);
/// it only crosses to that queue once, at creation.
public final class SqliteValueBox: @unchecked Sendable {
    /// The connection; exposed for pragmas, checkpoints and the integrity check.
    public let database: Database
    /// The database file.
    public let path: String
    /// The tables that exist, as of `knownSchemaVersion` (another connection or process may create more).
    private var knownTables: Set<String> = []
    /// The ids of the key-value tables `t<id>` among `knownTables`, checked on every read and write (indexed by id
    /// instead of building and hashing the table's name).
    private var knownKeyValueTables = TableIdSet()
    /// SQLite's schema cookie when `knownTables` was read; -1 makes the next transaction re-read it.
    private var knownSchemaVersion: Int64 = -1
    private var statements = StatementCache()
    /// Per `.byRowId` full-text table, the highest rowid it has held (`fullTextSet(_:rowId:…)`): forgotten on a
    /// rollback and when another connection has committed since.
    var fullTextRowIdCeilings: [Int32: Int64] = [:]
    /// `PRAGMA data_version` when this connection last began a write transaction with ceilings remembered.
    private var knownDataVersion: Int64 = -1

    /// Finalizes the cached statements of table `id` (before the table is dropped).
    func forgetStatements(_ id: Int32) {
        for kind in StatementKind.allCases { statements[id, kind] = nil }
    }

    /// What a cached statement does, per table; statements are found by table id and kind, not by SQL text.
    enum StatementKind: UInt8, CaseIterable {
        case get, exists, set, insertIfAbsent, remove, count, countRange, rangeAscValues, rangeDescValues, rangeAscKeys,
            rangeDescKeys
        case scan, removeRange, removeAll, fullTextInsert, fullTextRemove, fullTextMatch, schemaVersion
        case insertReturningRowId, rowIdByKey, getByRowId, scanWithRowIds, fullTextInsertWithRowId
        case fullTextRemoveRowId, fullTextMatchRowIds, fullTextRemoveAll, getWithRowId
        case fullTextInsertAboveRows, dataVersion
    }

    struct StatementKey: Hashable {
        let table: Int32
        let kind: StatementKind

        /// One integer into the hasher instead of two fields.
        func hash(into hasher: inout Hasher) {
            hasher.combine(Int(table) << 8 | Int(kind.rawValue))
        }
    }

    /// The ids of the `t<id>` tables among `names`.
    private static func keyValueTableIds(_ names: Set<String>) -> TableIdSet {
        TableIdSet(names.compactMap { name in name.first == "t" ? Int32(name.dropFirst()) : nil })
    }

    /// Whether a table named `name` exists (as of the last schema check; this connection's own creations and drops
    /// included).
    func tableExists(_ name: String) -> Bool {
        knownTables.contains(name)
    }

    /// Whether the key-value table exists (as of the last schema check).
    private func isKnown(_ table: ValueBoxTable) -> Bool {
        knownKeyValueTables.contains(table.id)
    }

    /// Finalizes every cached statement (before rekeying or closing).
    public func clearStatements() {
        statements.removeAll()
        database.clearStatementCache()
    }

    /// The prepared statement for `kind` on table `table`, prepared from `sql` the first time.
    func statement(
        _ table: Int32, _ kind: StatementKind, _ sql: @autoclosure () -> String
    ) throws(SQLiteError)
        -> Statement
    {
        if let statement = statements[table, kind] { return statement }
        let statement = try database.prepare(sql(), persistent: true)
        statements[table, kind] = statement
        return statement
    }
    private var secureDeleteOn = false

    /// Opens (creating when missing, unless `readOnly`) the database at `path` with `key`, or unencrypted when
    /// `key` is `nil`, and applies the Postbox pragmas with a page cache of `cacheSizeKiB`.
    public init(
        path: String, key: Database.CipherKey?, readOnly: Bool = false, cacheSizeKiB: Int = 16_384
    )
        throws(ValueBoxError)
    {
        self.path = path
        do {
            database = try Database(path: path, mode: readOnly ? .readOnly : .readWrite)
            if let key { try database.applyKey(key) }
            _ = try database.scalarInt("SELECT count(*) FROM sqlite_master")
            if readOnly {
                database.setBusyTimeout(milliseconds: 5000)
                try database.execute("PRAGMA cache_size = -\(cacheSizeKiB)")
            } else {
                try database.applyPostboxPragmas(cacheSizeKiB: cacheSizeKiB)
            }
            knownTables = Set(try database.textColumn("SELECT name FROM sqlite_master WHERE type = 'table'"))
            knownKeyValueTables = Self.keyValueTableIds(knownTables)
        } catch {
            throw ValueBoxError(error, path: path)
        }
    }

    func wrap<R>(_ body: () throws(SQLiteError) -> R) throws(ValueBoxError) -> R {
        do { return try body() } catch { throw ValueBoxError(error, path: path) }
    }

    // MARK: Transactions

    /// Starts a write transaction (`BEGIN IMMEDIATE`).
    public func begin() throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            try database.beginImmediate()
            try refreshKnownTables()
            try forgetCeilingsAfterOtherWriters()
        }
    }

    /// Another connection or process committed since this connection last looked (`PRAGMA data_version`): the
    /// full-text tables' remembered highest rowids may be stale, and are read again when next needed.
    private func forgetCeilingsAfterOtherWriters() throws(SQLiteError) {
        guard !fullTextRowIdCeilings.isEmpty else { return }
        let statement = try statement(-1, .dataVersion, "PRAGMA data_version")
        defer { statement.reset() }
        let version = try statement.step() ? statement.int64(0) : -1
        if version != knownDataVersion { fullTextRowIdCeilings = [:] }
        knownDataVersion = version
    }

    /// Starts a read transaction (`BEGIN DEFERRED`); its snapshot is taken here.
    public func beginRead() throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            try database.beginDeferred()
            try refreshKnownTables()
        }
    }

    /// Re-reads the table list when the schema cookie moved: another connection or process created tables since
    /// this connection last looked (a reader would otherwise miss a table created after it opened), or this one
    /// created or dropped a full-text table and its shadow tables.
    func refreshKnownTables() throws(SQLiteError) {
        let statement = try statement(-1, .schemaVersion, "PRAGMA schema_version")
        defer { statement.reset() }
        let version = try statement.step() ? statement.int64(0) : -1
        guard version != knownSchemaVersion else { return }
        knownTables = Set(try database.textColumn("SELECT name FROM sqlite_master WHERE type = 'table'"))
        knownKeyValueTables = Self.keyValueTableIds(knownTables)
        knownSchemaVersion = version
    }

    /// Commits the open transaction.
    public func commit() throws(ValueBoxError) { try wrap { () throws(SQLiteError) in try database.commit() } }

    /// Rolls back the open transaction, undoing every write since `begin()`; table creation is forgotten too (the
    /// table list is re-read at the next `begin` when this transaction created tables).
    public func rollback() {
        database.rollback()
        // A remembered highest rowid may have been read or raised in what was undone.
        fullTextRowIdCeilings = [:]
    }

    /// Copies the WAL into the database file.
    public func checkpoint(truncate: Bool = false) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in try database.checkpoint(truncate ? .truncate : .passive) }
    }

    // MARK: Tables

    func ensure(_ table: ValueBoxTable) throws(SQLiteError) {
        guard !isKnown(table) else { return }
        switch table.keyType {
        case .binary:
            try database.execute(
                "CREATE TABLE IF NOT EXISTS \(table.sqlName) (key BLOB PRIMARY KEY, value BLOB)"
                    + (table.compactValuesOnCreation ? " WITHOUT ROWID" : ""))
        case .int64:
            try database.execute("CREATE TABLE IF NOT EXISTS \(table.sqlName) (key INTEGER PRIMARY KEY, value BLOB)")
        }
        knownTables.insert(table.sqlName)
        knownKeyValueTables.insert(table.id)
        knownSchemaVersion = -1  // re-read after this transaction, whether it commits or rolls back
    }

    /// The names and row counts of every table in the database, in name order.
    public func tableStatistics() throws(ValueBoxError) -> [(name: String, rows: Int64)] {
        try wrap { () throws(SQLiteError) in
            var result: [(String, Int64)] = []
            let names = try database.textColumn(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 't[0-9]*' OR name GLOB 'ft[0-9]*' "
                    + "AND type = 'table' ORDER BY name")
            for name in names {
                result.append((name, try database.scalarInt("SELECT count(*) FROM \(name)") ?? 0))
            }
            return result
        }
    }

    // MARK: Key-value operations

    private func bindKey(_ statement: Statement, _ index: Int32, _ key: ValueBoxKey, _ table: ValueBoxTable) {
        switch table.keyType {
        case .binary: statement.bind(index, key.bytes)
        case .int64: statement.bind(index, key.length >= 8 ? key.getInt64(0) : 0)
        }
    }

    private func readKey(_ statement: Statement, _ table: ValueBoxTable) -> ValueBoxKey {
        switch table.keyType {
        case .binary: return ValueBoxKey(statement.bytes(0))
        case .int64: return ValueBoxKey(int64: statement.int64(0))
        }
    }

    /// The value stored under `key`, or `nil`.
    public func get(_ table: ValueBoxTable, key: ValueBoxKey) throws(ValueBoxError) -> [UInt8]? {
        try wrap { () throws(SQLiteError) -> [UInt8]? in
            guard isKnown(table) else { return nil }
            let statement = try statement(table.id, .get, "SELECT value FROM \(table.sqlName) WHERE key = ?")
            defer { statement.reset() }
            bindKey(statement, 1, key, table)
            return try statement.step() ? statement.bytes(0) : nil
        }
    }

    /// The rowid and value of the row stored under `key` (tables created with a rowid), or `nil`: one lookup where
    /// `rowId(_:key:)` and `get(_:key:)` would make two.
    public func getWithRowId(
        _ table: ValueBoxTable, key: ValueBoxKey
    ) throws(ValueBoxError) -> (
        rowId: Int64, value: [UInt8]
    )? {
        try wrap { () throws(SQLiteError) -> (rowId: Int64, value: [UInt8])? in
            guard isKnown(table) else { return nil }
            let statement = try statement(
                table.id, .getWithRowId, "SELECT rowid, value FROM \(table.sqlName) WHERE key = ?")
            defer { statement.reset() }
            bindKey(statement, 1, key, table)
            return try statement.step() ? (statement.int64(0), statement.bytes(1)) : nil
        }
    }

    /// Whether a value is stored under `key`.
    public func exists(_ table: ValueBoxTable, key: ValueBoxKey) throws(ValueBoxError) -> Bool {
        try wrap { () throws(SQLiteError) -> Bool in
            guard isKnown(table) else { return false }
            let statement = try statement(table.id, .exists, "SELECT 1 FROM \(table.sqlName) WHERE key = ?")
            defer { statement.reset() }
            bindKey(statement, 1, key, table)
            return try statement.step()
        }
    }

    /// Stores `value` under `key`, replacing any value there (an upsert).
    public func set(_ table: ValueBoxTable, key: ValueBoxKey, value: [UInt8]) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            try ensure(table)
            try upsert(table, key: key, value: value)
        }
    }

    /// The upsert behind `set`: a row stored under `key` keeps its rowid and gets `value`.
    private func upsert(_ table: ValueBoxTable, key: ValueBoxKey, value: [UInt8]) throws(SQLiteError) {
        let statement = try statement(
            table.id, .set,
            "INSERT INTO \(table.sqlName) (key, value) VALUES (?, ?) "
                + "ON CONFLICT(key) DO UPDATE SET value = excluded.value")
        bindKey(statement, 1, key, table)
        statement.bind(2, value)
        try statement.run()
    }

    /// Inserts `value` under `key` as a new row and returns its rowid; when a row is already stored under `key`, it
    /// is rewritten in place instead, keeping its rowid, and `keyWasTaken` says so (a caller that numbers rows of
    /// its own after these rowids, as Postbox's text index does, then knows the row it had there is stale). Only for
    /// tables created with a rowid (not `compactValuesOnCreation`); the rowid stays the row's while `set` rewrites
    /// it in place.
    public func insertReturningRowId(
        _ table: ValueBoxTable, key: ValueBoxKey, value: [UInt8]
    ) throws(ValueBoxError)
        -> (rowId: Int64, keyWasTaken: Bool)
    {
        try wrap { () throws(SQLiteError) -> (rowId: Int64, keyWasTaken: Bool) in
            try ensure(table)
            let statement = try statement(
                table.id, .insertReturningRowId, "INSERT INTO \(table.sqlName) (key, value) VALUES (?, ?)")
            bindKey(statement, 1, key, table)
            statement.bind(2, value)
            do throws(SQLiteError) {
                try statement.run()
                return (database.lastInsertRowId, false)
            } catch {
                guard error.primaryCode == 19 else { throw error }  // SQLITE_CONSTRAINT: the key is taken
            }
            try upsert(table, key: key, value: value)
            guard let rowId = try storedRowId(table, key: key) else {
                throw SQLiteError(code: 1, message: "row vanished", context: "insert")
            }
            return (rowId, true)
        }
    }

    /// The rowid of the row stored under `key` (tables created with a rowid), or `nil`.
    public func rowId(_ table: ValueBoxTable, key: ValueBoxKey) throws(ValueBoxError) -> Int64? {
        try wrap { () throws(SQLiteError) -> Int64? in
            guard isKnown(table) else { return nil }
            return try storedRowId(table, key: key)
        }
    }

    /// The lookup behind `rowId(_:key:)`, for a table known to exist.
    private func storedRowId(_ table: ValueBoxTable, key: ValueBoxKey) throws(SQLiteError) -> Int64? {
        let statement = try statement(table.id, .rowIdByKey, "SELECT rowid FROM \(table.sqlName) WHERE key = ?")
        defer { statement.reset() }
        bindKey(statement, 1, key, table)
        return try statement.step() ? statement.int64(0) : nil
    }

    /// The key and value of the row with `rowId` (tables created with a rowid), or `nil`.
    public func get(_ table: ValueBoxTable, rowId: Int64) throws(ValueBoxError) -> (key: ValueBoxKey, value: [UInt8])? {
        try wrap { () throws(SQLiteError) -> (key: ValueBoxKey, value: [UInt8])? in
            guard isKnown(table) else { return nil }
            let statement = try statement(
                table.id, .getByRowId, "SELECT key, value FROM \(table.sqlName) WHERE rowid = ?")
            defer { statement.reset() }
            statement.bind(1, rowId)
            return try statement.step() ? (readKey(statement, table), statement.bytes(1)) : nil
        }
    }

    /// Visits every row of `table` (created with a rowid) in rowid order with its rowid; `body` returns `false` to
    /// stop. (Rowid order: an index rebuilt from the rows, numbered by their rowids, gets them in ascending order.)
    public func scanWithRowIds(_ table: ValueBoxTable, _ body: (Int64, ValueBoxKey, [UInt8]) throws -> Bool) throws {
        guard isKnown(table) else { return }
        let statement = try statement(
            table.id, .scanWithRowIds, "SELECT key, value, rowid FROM \(table.sqlName) ORDER BY rowid ASC")
        defer { statement.reset() }
        while try statement.step() {
            if try !body(statement.int64(2), readKey(statement, table), statement.bytes(1)) { break }
        }
    }

    /// Stores `value` under `key` only when the key is absent; returns whether it stored (one b-tree search
    /// instead of a lookup followed by an insert).
    public func insertIfAbsent(_ table: ValueBoxTable, key: ValueBoxKey, value: [UInt8]) throws(ValueBoxError) -> Bool {
        try wrap { () throws(SQLiteError) -> Bool in
            try ensure(table)
            let statement = try statement(
                table.id, .insertIfAbsent, "INSERT OR IGNORE INTO \(table.sqlName) (key, value) VALUES (?, ?)")
            bindKey(statement, 1, key, table)
            statement.bind(2, value)
            try statement.run()
            return database.changes > 0
        }
    }

    /// Removes the value under `key`; `secure` overwrites the freed content with zeros.
    public func remove(_ table: ValueBoxTable, key: ValueBoxKey, secure: Bool = false) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            guard isKnown(table) else { return }
            try setSecureDelete(secure)
            let statement = try statement(table.id, .remove, "DELETE FROM \(table.sqlName) WHERE key = ?")
            bindKey(statement, 1, key, table)
            try statement.run()
        }
    }

    private func setSecureDelete(_ enabled: Bool) throws(SQLiteError) {
        if enabled != secureDeleteOn {
            try database.setSecureDelete(enabled)
            secureDeleteOn = enabled
        }
    }

    /// Number of rows in `table`.
    public func count(_ table: ValueBoxTable) throws(ValueBoxError) -> Int {
        try wrap { () throws(SQLiteError) -> Int in
            guard isKnown(table) else { return 0 }
            return Int(try statement(table.id, .count, "SELECT count(*) FROM \(table.sqlName)").stepScalar())
        }
    }

    /// Number of rows with keys strictly between `start` and `end` (in either order).
    public func count(_ table: ValueBoxTable, start: ValueBoxKey, end: ValueBoxKey) throws(ValueBoxError) -> Int {
        try wrap { () throws(SQLiteError) -> Int in
            guard isKnown(table) else { return 0 }
            let (low, high) = start < end ? (start, end) : (end, start)
            let statement = try statement(
                table.id, .countRange, "SELECT count(*) FROM \(table.sqlName) WHERE key > ? AND key < ?")
            bindKey(statement, 1, low, table)
            bindKey(statement, 2, high, table)
            return Int(try statement.stepScalar())
        }
    }

    /// Visits rows with keys strictly between `start` and `end`: ascending when `start < end`, descending
    /// otherwise; at most `limit` rows; `body` returns `false` to stop early.
    public func range(
        _ table: ValueBoxTable, start: ValueBoxKey, end: ValueBoxKey, limit: Int = Int.max,
        values body: (ValueBoxKey, [UInt8]) throws -> Bool
    ) throws {
        try rangeRows(table, start: start, end: end, limit: limit, withValues: true) { statement in
            try body(readKey(statement, table), statement.bytes(1))
        }
    }

    /// Visits keys strictly between `start` and `end` (direction and limit as in `range(_:start:end:limit:values:)`).
    public func range(
        _ table: ValueBoxTable, start: ValueBoxKey, end: ValueBoxKey, limit: Int = Int.max,
        keys body: (ValueBoxKey) throws -> Bool
    ) throws {
        try rangeRows(table, start: start, end: end, limit: limit, withValues: false) { statement in
            try body(readKey(statement, table))
        }
    }

    private func rangeRows(
        _ table: ValueBoxTable, start: ValueBoxKey, end: ValueBoxKey, limit: Int, withValues: Bool,
        _ body: (Statement) throws -> Bool
    ) throws {
        guard isKnown(table), limit > 0 else { return }
        let ascending = start < end
        let columns = withValues ? "key, value" : "key"
        let order = ascending ? "ASC" : "DESC"
        let statement = try statement(
            table.id,
            withValues
                ? (ascending ? .rangeAscValues : .rangeDescValues) : (ascending ? .rangeAscKeys : .rangeDescKeys),
            "SELECT \(columns) FROM \(table.sqlName) WHERE key > ? AND key < ? ORDER BY key \(order) LIMIT ?")
        defer { statement.reset() }
        bindKey(statement, 1, ascending ? start : end, table)
        bindKey(statement, 2, ascending ? end : start, table)
        statement.bind(3, Int64(min(limit, Int(Int64.max))))
        while try statement.step() {
            if try !body(statement) { break }
        }
    }

    /// Visits every row of `table` in key order; `body` returns `false` to stop.
    public func scan(_ table: ValueBoxTable, values body: (ValueBoxKey, [UInt8]) throws -> Bool) throws {
        guard isKnown(table) else { return }
        let statement = try statement(table.id, .scan, "SELECT key, value FROM \(table.sqlName) ORDER BY key ASC")
        defer { statement.reset() }
        while try statement.step() {
            if try !body(readKey(statement, table), statement.bytes(1)) { break }
        }
    }

    /// Removes rows with keys strictly between `start` and `end` (in either order).
    public func removeRange(_ table: ValueBoxTable, start: ValueBoxKey, end: ValueBoxKey) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            guard isKnown(table) else { return }
            let (low, high) = start < end ? (start, end) : (end, start)
            let statement = try statement(
                table.id, .removeRange, "DELETE FROM \(table.sqlName) WHERE key > ? AND key < ?")
            bindKey(statement, 1, low, table)
            bindKey(statement, 2, high, table)
            try statement.run()
        }
    }

    /// Removes every row of `table`.
    public func removeAllFromTable(_ table: ValueBoxTable) throws(ValueBoxError) {
        try wrap { () throws(SQLiteError) in
            guard isKnown(table) else { return }
            try statement(table.id, .removeAll, "DELETE FROM \(table.sqlName)").run()
        }
    }
}

extension Statement {
    /// Steps once and returns column 0 as an integer (0 when there is no row), then resets.
    func stepScalar() throws(SQLiteError) -> Int64 {
        defer { reset() }
        return try step() ? int64(0) : 0
    }
}
