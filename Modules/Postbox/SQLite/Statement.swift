import CSQLCipher
import CSQLCipherShims

/// A prepared statement owned by one `Database`; bind, step, read columns, reset.
///
/// Statements are not thread-safe: they are used on the queue that owns their database.
public final class Statement {
    let handle: OpaquePointer
    unowned let database: Database
    /// The SQL text, for error messages.
    public let sql: String

    init(handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and clears its bindings so it can run again.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds a 64-bit integer to the 1-based parameter `index`.
    public func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    /// Binds bytes (copied by SQLite) to the 1-based parameter `index`.
    public func bind(_ index: Int32, bytes: UnsafeRawBufferPointer) {
        // A zero-length blob must still bind a non-NULL pointer, or SQLite binds NULL.
        if let base = bytes.baseAddress {
            _ = telegraph_sqlite3_bind_blob_transient(handle, index, base, sqlite3_uint64(bytes.count))
        } else {
            sqlite3_bind_zeroblob(handle, index, 0)
        }
    }

    /// Binds a byte array to the 1-based parameter `index`.
    public func bind(_ index: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { bind(index, bytes: $0) }
    }

    /// Binds UTF-8 text to the 1-based parameter `index`.
    public func bind(_ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            let base = UnsafeRawPointer(utf8.baseAddress ?? UnsafePointer(bitPattern: 1)!)
            _ = telegraph_sqlite3_bind_text_transient(
                handle, index, base.assumingMemoryBound(to: CChar.self), sqlite3_uint64(utf8.count))
        }
    }

    /// Binds NULL to the 1-based parameter `index`.
    public func bindNull(_ index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    /// Runs one step: `true` when a row is ready, `false` when the statement is done.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(result, sql)
        }
    }

    /// Runs the statement to completion, ignoring rows, then resets it.
    public func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    /// The number of columns in a result row.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// Column `index` (0-based) as an integer.
    public func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Whether column `index` is NULL.
    public func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` as bytes (copied).
    public func bytes(_ index: Int32) -> [UInt8] {
        withBytes(index) { Array($0) }
    }

    /// Calls `body` with column `index`'s bytes, valid only during the call.
    public func withBytes<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let pointer = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    /// Column `index` as UTF-8 text (invalid sequences repaired).
    public func text(_ index: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}
