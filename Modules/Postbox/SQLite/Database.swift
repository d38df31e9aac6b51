import CSQLCipher
import CSQLCipherShims

/// One SQLCipher connection: the only owner of a raw `sqlite3*` handle, with a cache of prepared statements.
///
/// `@unchecked Sendable`: a connection is created on one queue and from then on used only on the queue that owns
/// it (Postbox's writer queue or a reader's queue); it may be handed to that queue, never used from two at once.
public final class Database: @unchecked Sendable {
    /// How to open the file.
    public enum Mode: Sendable {
        case readWrite
        case readOnly
    }

    let handle: OpaquePointer
    /// The file path as given.
    public let path: String
    private var cache: [String: Statement] = [:]

    /// Opens (creating when `mode` is `.readWrite`) the database at `path`. Nothing is read until the first query.
    public init(path: String, mode: Mode = .readWrite) throws(SQLiteError) {
        Database.configureOnce
        var pointer: OpaquePointer?
        let flags: Int32 =
            mode == .readWrite
            ? (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX)
            : (SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)
        let result = sqlite3_open_v2(path, &pointer, flags, nil)
        guard result == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let pointer { sqlite3_close_v2(pointer) }
            throw SQLiteError(code: result, message: message, context: "open \(path)")
        }
        sqlite3_extended_result_codes(pointer, 1)
        self.handle = pointer
        self.path = path
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Process-wide settings that SQLite accepts only before the first connection.
    private static let configureOnce: Void = {
        _ = telegraph_sqlite3_config_memstatus(0)
    }()

    func error(_ code: Int32, _ context: String) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), context: context)
    }

    /// The SQLite library version, e.g. "3.46.1".
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// Runs one or more statements that return no rows the caller needs.
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &message)
        if result != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: result, message: text, context: sql)
        }
    }

    /// A fresh prepared statement for `sql`, owned by the caller.
    public func prepare(_ sql: String, persistent: Bool = false) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let flags: UInt32 = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let result = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard result == SQLITE_OK, let statement else { throw error(result, sql) }
        return Statement(handle: statement, database: self, sql: sql)
    }

    /// The cached prepared statement for `sql` (prepared once, persistent), reset and ready to bind.
    public func cached(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = cache[sql] {
            return statement
        }
        let statement = try prepare(sql, persistent: true)
        cache[sql] = statement
        return statement
    }

    /// Drops every cached statement (before a schema change that invalidates them, or before closing).
    public func clearStatementCache() {
        cache.removeAll()
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the row the last successful INSERT on this connection added.
    public var lastInsertRowId: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether the connection is inside an explicit transaction.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Waits up to `milliseconds` for another connection's lock before failing with `SQLITE_BUSY`.
    public func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// The single value of a query such as `PRAGMA user_version`, as an integer (`nil` when no row).
    public func scalarInt(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int64(0) : nil
    }

    /// Every row's first column as text (for pragmas such as `integrity_check`).
    public func textColumn(_ sql: String) throws(SQLiteError) -> [String] {
        let statement = try prepare(sql)
        var rows: [String] = []
        while try statement.step() { rows.append(statement.text(0)) }
        return rows
    }
}
