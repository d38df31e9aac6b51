/// Transactions and WAL checkpoints (as in Telegram-iOS `SqliteValueBox.swift`: `BEGIN IMMEDIATE` for writers,
/// `BEGIN DEFERRED` for readers).
extension Database {
    /// Starts a write transaction that takes the write lock at once.
    public func beginImmediate() throws(SQLiteError) {
        try cached("BEGIN IMMEDIATE").run()
    }

    /// Starts a read transaction (a WAL snapshot taken at the first read).
    public func beginDeferred() throws(SQLiteError) {
        try cached("BEGIN DEFERRED").run()
    }

    /// Commits the open transaction.
    public func commit() throws(SQLiteError) {
        try cached("COMMIT").run()
    }

    /// Rolls back the open transaction; does nothing when none is open.
    public func rollback() {
        guard isInTransaction else { return }
        try? execute("ROLLBACK")
    }

    /// How a WAL checkpoint treats readers and the log file.
    public enum CheckpointMode: String, Sendable {
        case passive = "PASSIVE"
        case full = "FULL"
        case truncate = "TRUNCATE"
    }

    /// Copies the write-ahead log into the database file.
    public func checkpoint(_ mode: CheckpointMode = .passive) throws(SQLiteError) {
        try execute("PRAGMA wal_checkpoint(\(mode.rawValue))")
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound database, otherwise one line per problem.
    public func integrityCheck() throws(SQLiteError) -> [String] {
        try textColumn("PRAGMA integrity_check")
    }
}
