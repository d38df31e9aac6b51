/// SQLCipher keying (REFERENCE §3.1): a raw 32-byte key and 16-byte salt, a 32-byte plaintext header so iOS can
/// recognise a WAL database file, and rekeying.
extension Database {
    /// The key material of an encrypted database: 32 key bytes and 16 salt bytes, passed to SQLCipher raw.
    public struct CipherKey: Equatable, Sendable {
        /// The 256-bit key.
        public let key: [UInt8]
        /// The 128-bit salt (stored outside the file because the header is plaintext).
        public let salt: [UInt8]

        /// Key material; `nil` unless `key` is 32 bytes and `salt` 16.
        public init?(key: [UInt8], salt: [UInt8]) {
            guard key.count == 32, salt.count == 16 else { return nil }
            self.key = key
            self.salt = salt
        }

        /// The SQL literal `"x'<hex(key ‖ salt)>'"` for `PRAGMA key` / `PRAGMA rekey`.
        var pragmaLiteral: String {
            let hex = (key + salt).map { byte -> String in
                let digits = Array("0123456789abcdef")
                return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
            }.joined()
            return "\"x'\(hex)'\""
        }
    }

    /// Keys a freshly opened connection and proves the key by reading the schema.
    ///
    /// Throws `SQLiteError` with `isNotADatabase` when the key is wrong or the file is not an SQLCipher database.
    public func applyKey(_ key: CipherKey) throws(SQLiteError) {
        try execute("PRAGMA cipher_default_plaintext_header_size = 32")
        try execute("PRAGMA key = \(key.pragmaLiteral)")
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

    /// Re-encrypts the whole database under `key` (the connection must not be inside a transaction).
    public func rekey(_ key: CipherKey) throws(SQLiteError) {
        clearStatementCache()
        try execute("PRAGMA rekey = \(key.pragmaLiteral)")
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
