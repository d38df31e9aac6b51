import CSQLCipher
import CSQLCipherShims

/// SQLCipher keying: a raw 32-byte key and 16-byte salt, a 32-byte plaintext header so iOS can recognise a WAL
/// database file (Telegram-iOS `SqliteValueBox.swift`), and rekeying.
///
/// Keys go to SQLCipher through `sqlite3_key_v2` / `sqlite3_rekey_v2`, never as `PRAGMA key` text: SQL text is kept
/// in statement caches and copied into errors, and a key must reach neither.
extension Database {
    /// Keys a freshly opened connection and proves the key by reading the schema.
    ///
    /// Throws `SQLiteError` with `isNotADatabase` when the key is wrong or the file is not an SQLCipher database.
    public func applyKey(_ key: CipherKey) throws(SQLiteError) {
        try execute("PRAGMA cipher_default_plaintext_header_size = 32")
        let result = key.withMaterial { telegraph_sqlcipher_key_raw(handle, $0.baseAddress, Int32($0.count), 0) }
        guard result == SQLITE_OK else { throw error(result, "sqlite3_key_v2 \(path)") }
        // SQLCipher logs failed HMAC checks (every wrong-key attempt) to stderr; the caller gets the error instead.
        // Only the level is set, after the key (SQLCipher's first key installs its defaults): the log target is one
        // process-wide FILE that `PRAGMA cipher_log` closes and reopens without a lock (sqlcipher.c,
        // `sqlcipher_set_log`), so connections keyed at once closed the same stream twice and corrupted the C
        // library's list of open streams (a test process then spun forever in its exit-time flush).
        try execute("PRAGMA cipher_log_level = NONE")
        try execute("PRAGMA cipher_plaintext_header_size = 32")
        try execute("PRAGMA cipher_memory_security = OFF")
        do {
            _ = try scalarInt("SELECT count(*) FROM sqlite_master")
        } catch {
            // SQLCipher reports a failed page-1 HMAC as SQLITE_ERROR from prepare; it means the same as NOTADB.
            guard error.primaryCode == 1 || error.primaryCode == 26 else { throw error }
            throw SQLiteError(code: 26, message: "file is not a database or the key is wrong", context: path)
        }
    }

    /// Re-encrypts the whole database from `current` to `newKey` in one transaction, durably (`synchronous = FULL`
    /// for the rekey), then proves it by opening the file with `newKey` on a second connection.
    ///
    /// `sqlite3_rekey_v2` reports success even when it could not take the write lock or rewrite a page (SQLCipher
    /// 4.6, `src/sqlcipher.c`), leaving this connection set to write pages under the new key while it reads them
    /// under the old one. So when the second connection cannot open the file with `newKey`, `current` is set back as
    /// the write key and the rekey throws `SQLiteError` with code `SQLITE_BUSY`: the file is unchanged and still
    /// opens with `current`. Another failure to confirm is rethrown as it is; then the file opens with one of the
    /// two keys, and this connection should be closed. The connection must not be inside a transaction.
    public func rekey(to newKey: CipherKey, from current: CipherKey) throws(SQLiteError) {
        let context = "rekey \(path)"
        guard !isInTransaction else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "cannot rekey inside a transaction", context: context)
        }
        clearStatementCache()
        let synchronous = try scalarInt("PRAGMA synchronous") ?? 1
        try execute("PRAGMA synchronous = FULL")
        defer { try? execute("PRAGMA synchronous = \(synchronous)") }
        let result = newKey.withMaterial { telegraph_sqlcipher_key_raw(handle, $0.baseAddress, Int32($0.count), 1) }
        guard result == SQLITE_OK else { throw error(result, context) }
        do {
            try Database.confirmKey(newKey, path: path)
        } catch  where error.isNotADatabase {
            // Not applied: make the write key the read key again (a second rekey to `current` either fails the
            // same way, which leaves both set to `current`, or rewrites every page under `current`).
            _ = current.withMaterial { telegraph_sqlcipher_key_raw(handle, $0.baseAddress, Int32($0.count), 1) }
            throw SQLiteError(
                code: SQLITE_BUSY,
                message: "the rekey did not take effect (another connection held the write lock, or a page could "
                    + "not be rewritten); the database is unchanged and still opens with its current key",
                context: context)
        }
    }

    /// Opens `path` on a new connection with `key` and reads its schema; throws `isNotADatabase` when `key` does
    /// not open it.
    public static func confirmKey(_ key: CipherKey, path: String) throws(SQLiteError) {
        let probe = try Database(path: path)
        probe.setBusyTimeout(milliseconds: 5000)
        try probe.applyKey(key)
    }

    /// The SQLCipher version, e.g. "4.6.1 community" (`nil` for a plain SQLite build).
    public func cipherVersion() throws(SQLiteError) -> String? {
        try textColumn("PRAGMA cipher_version").first
    }

    /// The connection's settings for a Postbox: WAL, `synchronous = NORMAL`, in-memory temp store, a page cache of
    /// `cacheSizeKiB` (allocated only as pages are used).
    public func applyPostboxPragmas(
        cacheSizeKiB: Int = 16_384, busyTimeoutMilliseconds: Int32 = 5000
    ) throws(SQLiteError) {
        setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
        try execute("PRAGMA temp_store = MEMORY")
        try execute("PRAGMA mmap_size = 0")
        try execute("PRAGMA cache_size = -\(cacheSizeKiB)")
    }

    /// Turns `secure_delete` on or off (overwrite removed content with zeros).
    public func setSecureDelete(_ enabled: Bool) throws(SQLiteError) {
        try execute("PRAGMA secure_delete = \(enabled ? 1 : 0)")
    }
}
