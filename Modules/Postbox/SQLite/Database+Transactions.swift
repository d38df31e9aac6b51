import CSQLCipher

/// The handler `Database.onWALCommit` registered; the connection keeps it alive while SQLite points to it.
final class WALCommitHandler: Sendable {
    let handler: @Sendable (Int) -> Void

    init(_ handler: @escaping @Sendable (Int) -> Void) {
        self.handler = handler
    }
}

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

    /// Calls `handler` on the committing thread after each commit of this connection in WAL mode, with the number of
    /// frames now in the log (`sqlite3_wal_hook`, sqlite.org/c3ref/wal_hook.html). This replaces SQLite's automatic
    /// checkpoint on this connection, which is such a hook: the caller decides when and where to checkpoint
    /// (sqlite.org/wal.html, "Application-Initiated Checkpoints").
    public func onWALCommit(_ handler: @escaping @Sendable (Int) -> Void) {
        let box = WALCommitHandler(handler)
        walCommitHandler = box
        sqlite3_wal_hook(
            handle,
            { context, _, _, frames in
                guard let context else { return SQLITE_OK }
                Unmanaged<WALCommitHandler>.fromOpaque(context).takeUnretainedValue().handler(Int(frames))
                return SQLITE_OK
            }, Unmanaged.passUnretained(box).toOpaque())
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound database, otherwise one line per problem.
    public func integrityCheck() throws(SQLiteError) -> [String] {
        try textColumn("PRAGMA integrity_check")
    }
}
