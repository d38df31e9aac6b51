import CSQLCipherPeer
import PostboxBenchData

/// The insert limit: the same rows Postbox writes for a message (history record under the 20-byte key, the
/// 16-byte id index entry, the FTS5 row numbered with the history row's rowid), inserted with prepared statements in
/// one transaction on SQLCipher directly, with the same key setup and pragmas, and values encoded in advance.
final class RawSQLCipher {
    private var db: OpaquePointer?
    private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Opens `path` with Postbox's key setup (`keyHex` nil: a plaintext database, as Postbox opened without a key).
    init(path: String, keyHex: String?, cacheSizeKiB: Int, createTables: Bool = true) {
        precondition(sqlite3_open(path, &db) == SQLITE_OK)
        if let keyHex {
            exec("PRAGMA cipher_default_plaintext_header_size = 32")
            exec("PRAGMA key = \"x'\(keyHex)'\"")
            exec("PRAGMA cipher_plaintext_header_size = 32")
            exec("PRAGMA cipher_memory_security = OFF")
        }
        exec("PRAGMA journal_mode = WAL")
        exec("PRAGMA synchronous = NORMAL")
        exec("PRAGMA cache_size = -\(cacheSizeKiB)")
        guard createTables else { return }
        exec("CREATE TABLE IF NOT EXISTS t7 (key BLOB PRIMARY KEY, value BLOB)")
        exec("CREATE TABLE IF NOT EXISTS t4 (key BLOB PRIMARY KEY, value BLOB) WITHOUT ROWID")
        exec(
            "CREATE VIRTUAL TABLE IF NOT EXISTS ft41 USING fts5(collectionId, contents, tags, "
                + "tokenize = 'unicode61 remove_diacritics 2', content='', contentless_delete=1)")
    }

    deinit {
        close()
        sqlite3_close(db)
    }

    func exec(_ sql: String) {
        let result = sqlite3_exec(db, sql, nil, nil, nil)
        precondition(result == SQLITE_OK, "\(sql): \(String(cString: sqlite3_errmsg(db)))")
    }

    /// Pre-encoded rows for a message.
    struct Row {
        let historyKey: [UInt8]
        let historyValue: [UInt8]
        let indexKey: [UInt8]
        let indexValue: [UInt8]
        let collection: String
        let text: String
    }

    static func rows(_ messages: [BenchMessage]) -> [Row] {
        func be<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        return messages.map { m in
            let text = Array(m.text.utf8)
            let value =
                [0] + le(UInt32(1)) + le(UInt32(0)) + [8] + le(m.author) + le(UInt32(0)) + le(UInt32(0))
                + le(Int32(text.count)) + text + le(Int32(0)) + le(Int32(0)) + le(Int32(0))
            return Row(
                historyKey: be(m.peer) + be(Int32(0)) + be(m.timestamp) + be(m.id), historyValue: value,
                indexKey: be(m.peer) + be(Int32(0)) + be(m.id),
                indexValue: be(m.timestamp) + be(UInt32(0)) + be(UInt32(0)),
                collection: "p\(m.peer)", text: m.text)
        }
    }

    func insert(_ rows: [Row]) {
        var history: OpaquePointer?
        var index: OpaquePointer?
        var fts: OpaquePointer?
        sqlite3_prepare_v2(db, "INSERT INTO t7 (key, value) VALUES (?, ?)", -1, &history, nil)
        sqlite3_prepare_v2(db, "INSERT INTO t4 (key, value) VALUES (?, ?)", -1, &index, nil)
        sqlite3_prepare_v2(
            db, "INSERT INTO ft41 (rowid, collectionId, contents, tags) VALUES (?, ?, ?, '')", -1, &fts,
            nil)
        exec("BEGIN IMMEDIATE")
        for row in rows {
            bind(history, row.historyKey, row.historyValue)
            let historyRowId = sqlite3_last_insert_rowid(db)
            bind(index, row.indexKey, row.indexValue)
            sqlite3_bind_int64(fts, 1, historyRowId)
            sqlite3_bind_text(fts, 2, row.collection, -1, transient)
            sqlite3_bind_text(fts, 3, row.text, -1, transient)
            precondition(sqlite3_step(fts) == SQLITE_DONE)
            sqlite3_reset(fts)
        }
        exec("COMMIT")
        sqlite3_finalize(history)
        sqlite3_finalize(index)
        sqlite3_finalize(fts)
    }

    private func bind(_ statement: OpaquePointer?, _ key: [UInt8], _ value: [UInt8]) {
        key.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32($0.count), transient) }
        value.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 2, $0.baseAddress, Int32($0.count), transient) }
        precondition(sqlite3_step(statement) == SQLITE_DONE)
        sqlite3_reset(statement)
    }

    private var indexGet: OpaquePointer?
    private var historyGet: OpaquePointer?

    /// Rows in `table`.
    func count(_ table: String) -> Int {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "SELECT count(*) FROM \(table)", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return -1 }
        return Int(sqlite3_column_int64(statement, 0))
    }

    /// "messages N, text rows M": the history records and text-index rows of a Postbox database or of this peer's
    /// (the same table names), the output a write workload is compared by.
    var rowCounts: String { "messages \(count("t7")), text rows \(count("ft41"))" }

    /// Point lookup with persistent prepared statements: the id index, then the history record. Returns the
    /// length of the message's text, read from the record (nil when the message is not stored).
    func get(peer: Int64, id: Int32) -> Int? {
        if indexGet == nil {
            sqlite3_prepare_v3(
                db, "SELECT value FROM t4 WHERE key = ?", -1, UInt32(SQLITE_PREPARE_PERSISTENT), &indexGet, nil)
            sqlite3_prepare_v3(
                db, "SELECT value FROM t7 WHERE key = ?", -1, UInt32(SQLITE_PREPARE_PERSISTENT), &historyGet, nil)
        }
        defer {
            sqlite3_reset(indexGet)
            sqlite3_reset(historyGet)
        }
        func be<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        let key = be(peer) + be(Int32(0)) + be(id)
        key.withUnsafeBytes { _ = sqlite3_bind_blob(indexGet, 1, $0.baseAddress, Int32($0.count), transient) }
        guard sqlite3_step(indexGet) == SQLITE_ROW, let pointer = sqlite3_column_blob(indexGet, 0) else { return nil }
        let timestamp = Array(UnsafeRawBufferPointer(start: pointer, count: 4))
        let historyKey = be(peer) + be(Int32(0)) + timestamp + be(id)
        historyKey.withUnsafeBytes { _ = sqlite3_bind_blob(historyGet, 1, $0.baseAddress, Int32($0.count), transient) }
        guard sqlite3_step(historyGet) == SQLITE_ROW, let record = sqlite3_column_blob(historyGet, 0),
            sqlite3_column_bytes(historyGet, 0) >= 30
        else { return nil }
        // The text's length follows the flags, author and two counters (`rows` above): bytes 26..<30, little-endian.
        return Int(Int32(littleEndian: record.loadUnaligned(fromByteOffset: 26, as: Int32.self)))
    }

    private var fullTextMatch: OpaquePointer?

    /// The FTS5 query alone: the rowids of the newest `limit` rows matching `expression`, as Postbox's search asks
    /// for them, with nothing resolved to messages.
    func fullTextRowIds(_ expression: String, limit: Int) -> [Int64] {
        if fullTextMatch == nil {
            sqlite3_prepare_v3(
                db, "SELECT rowid FROM ft41 WHERE ft41 MATCH ? ORDER BY rowid DESC LIMIT ?", -1,
                UInt32(SQLITE_PREPARE_PERSISTENT), &fullTextMatch, nil)
        }
        defer { sqlite3_reset(fullTextMatch) }
        sqlite3_bind_text(fullTextMatch, 1, expression, -1, transient)
        sqlite3_bind_int64(fullTextMatch, 2, Int64(limit))
        var ids: [Int64] = []
        while sqlite3_step(fullTextMatch) == SQLITE_ROW { ids.append(sqlite3_column_int64(fullTextMatch, 0)) }
        return ids
    }

    func close() {
        sqlite3_finalize(fullTextMatch)
        fullTextMatch = nil
        sqlite3_finalize(indexGet)
        sqlite3_finalize(historyGet)
        indexGet = nil
        historyGet = nil
    }
}
