import Foundation
public import SQLite

/// tg-server's database: one SQLite (SQLCipher) connection in WAL mode, every read and write under one lock, the
/// schema brought up to date by `ServerSchema`'s numbered migrations when opened.
///
/// Durability: `synchronous = NORMAL` in WAL mode keeps every committed transaction across a process crash
/// (`kill -9`); the server answers a call only after the transaction that stored its effect committed.
///
/// `@unchecked Sendable`: the connection is used only under `lock`.
public final class ServerStore: @unchecked Sendable {
    /// Why the store could not open or use its database.
    public enum Failure: Error, CustomStringConvertible, Sendable {
        case database(SQLiteError)
        case newerSchema(found: Int64, known: Int)

        public var description: String {
            switch self {
            case .database(let error):
                if error.isNotADatabase {
                    return "the database is encrypted with another key, or is not a database (\(error.context)); "
                        + "pass the --db-key-file it was created with"
                }
                return "\(error)"
            case .newerSchema(let found, let known):
                return "the database has schema version \(found), newer than this tg-server knows (\(known)); "
                    + "use a newer tg-server"
            }
        }
    }

    private let lock = NSLock()
    private let database: Database
    /// The file path.
    public let path: String

    /// Opens (creating) the database at `path`, encrypted with `key` when given, and migrates it.
    public init(path: String, key: Database.CipherKey? = nil) throws {
        self.path = path
        do {
            database = try Database(path: path)
            if let key { try database.applyKey(key) }
            database.setBusyTimeout(milliseconds: 5000)
            try database.execute("PRAGMA journal_mode = WAL")
            try database.execute("PRAGMA synchronous = NORMAL")
            try database.execute("PRAGMA temp_store = MEMORY")
        } catch {
            throw Failure.database(error)
        }
        try migrate()
    }

    /// The schema version the database is at.
    public func schemaVersion() throws -> Int64 {
        try read { tx in try tx.integer("PRAGMA user_version") ?? 0 }
    }

    private func migrate() throws {
        let current = try schemaVersion()
        guard current <= Int64(ServerSchema.migrations.count) else {
            throw Failure.newerSchema(found: current, known: ServerSchema.migrations.count)
        }
        for (offset, sql) in ServerSchema.migrations.enumerated() where Int64(offset) >= current {
            try write { tx in
                try tx.database.execute(sql)
                try tx.database.execute("PRAGMA user_version = \(offset + 1)")
            }
        }
    }

    /// Runs `body` in one immediate transaction: committed when it returns, rolled back when it throws. SQLite's
    /// errors come out as `Failure.database`; the body's own errors as they are.
    public func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try write(body, then: { _ in })
    }

    /// Copies the write-ahead log into the database file and empties it.
    public func checkpoint() throws {
        lock.lock()
        defer { lock.unlock() }
        do {
            try database.checkpoint(.truncate)
        } catch {
            throw Failure.database(error)
        }
    }

    /// Runs `body` in one read transaction.
    public func read<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            try database.beginDeferred()
            defer { database.rollback() }
            return try body(StoreTransaction(database: database))
        } catch let error as SQLiteError {
            throw Failure.database(error)
        }
    }

    /// Runs `body` in one immediate transaction, then `afterCommit` with its result while still holding the lock:
    /// work that must happen in commit order (queueing the pushes of a write, so every session sees pts in order).
    public func write<T>(_ body: (StoreTransaction) throws -> T, then afterCommit: (T) -> Void) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            try database.beginImmediate()
            let result: T
            do {
                result = try body(StoreTransaction(database: database))
                try database.commit()
            } catch {
                database.rollback()
                throw error
            }
            afterCommit(result)
            return result
        } catch let error as SQLiteError {
            throw Failure.database(error)
        }
    }
}
