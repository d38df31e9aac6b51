import CoreMetrics
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
            // A server-sized page cache (SQLite's default is 2 MiB, so hot index pages were read back from the
            // file on every commit), and a checkpoint every 2,048 WAL pages instead of 1,000: a page rewritten by
            // many commits is copied into the database once per checkpoint, and the checkpoint's two fsyncs come
            // half as often. 8,192 pages saved no more CPU and stalled the writers longer (p99 up by a third at 100
            // calls in flight; BENCHMARKS.md, "Profile: server-bench"). The WAL file is kept for reuse up to 32 MiB.
            try database.execute("PRAGMA cache_size = -32768")
            try database.execute("PRAGMA wal_autocheckpoint = 2048")
            try database.execute("PRAGMA journal_size_limit = 33554432")
        } catch {
            throw Failure.database(error)
        }
        try migrate()
    }

    /// The schema version this build creates and reads: the number of migrations.
    public static var knownSchemaVersion: Int64 { Int64(ServerSchema.migrations.count) }

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
    public func write<T>(_ body: @escaping (StoreTransaction) throws -> T) throws -> T {
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

    /// Runs `body` in a write transaction, then `afterCommit` with its result while still holding the connection:
    /// work that must happen in commit order (queueing the pushes of a write, so every session sees pts in order).
    ///
    /// Group commit: writers that arrive while a transaction is being written wait, and the next one to go writes
    /// all of them in one transaction, each inside its own savepoint — a body that throws rolls back its own work
    /// only. Every caller returns after the transaction holding its work committed (or failed: then every body in it
    /// fails with the commit's error). One commit for many calls is what lets the server keep up with many clients.
    ///
    /// Both closures are `@escaping` because the batch's writer runs them on its own thread while this caller waits.
    /// Not `withoutActuallyEscaping`: its escape check embeds the length of the unmapped source path, so release
    /// builds from two checkout folders would differ (README "Reproducible builds"; `make repro-lint` refuses it).
    public func write<T>(
        _ body: @escaping (StoreTransaction) throws -> T, then afterCommit: @escaping (T) -> Void
    ) throws -> T {
        let job = WriteJob<T>(body: body, afterCommit: afterCommit)
        submit(job)
        return try job.outcome()
    }

    /// What the store has written since it was opened.
    public struct WriteStatistics: Sendable, Equatable {
        /// Transactions committed (each a group commit of one or more writes).
        public var commits = 0
        /// `write` calls whose work committed (a body that threw is not counted).
        public var writes = 0
    }

    private let statisticsLock = NSLock()
    private var statistics = WriteStatistics()

    /// Transactions and writes committed since the store was opened: what a test counts to show that a piece of work
    /// is one write, however many rows or recipients it has.
    public var writeStatistics: WriteStatistics { statisticsLock.withLock { statistics } }

    private let writers = NSCondition()
    private var pendingWrites: [any PendingWrite] = []
    private var committing = false
    /// The most writes one transaction takes.
    static let maximumBatch = 256

    /// Queues `job` and returns once a transaction holding it has finished: written by this caller, when no batch
    /// is being written, or by the caller writing the batch it joined.
    private func submit(_ job: any PendingWrite) {
        writers.lock()
        pendingWrites.append(job)
        while !job.isFinished {
            if committing {
                writers.wait()
                continue
            }
            committing = true
            let batch = Array(pendingWrites.prefix(Self.maximumBatch))
            pendingWrites.removeFirst(batch.count)
            writers.unlock()
            commit(batch)
            writers.lock()
            committing = false
            for write in batch { write.isFinished = true }
            writers.broadcast()
        }
        writers.unlock()
    }

    /// Writes `batch` in one transaction, each write in a savepoint, then runs their after-commit work in order.
    /// Metrics: `tg_server_store_commit_seconds` (a histogram: from BEGIN to COMMIT of each group commit) and
    /// `tg_server_store_commit_writes` (writes per commit).
    private func commit(_ batch: [any PendingWrite]) {
        let started = DispatchTime.now().uptimeNanoseconds
        defer {
            CoreMetrics.Timer(label: "tg_server_store_commit_seconds")
                .recordNanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds - started))
            Recorder(label: "tg_server_store_commit_writes").record(batch.count)
        }
        lock.lock()
        defer { lock.unlock() }
        do {
            try database.beginImmediate()
        } catch {
            for write in batch { write.fail(Failure.database(error)) }
            return
        }
        let transaction = StoreTransaction(database: database)
        for write in batch {
            do {
                try database.execute("SAVEPOINT write")
            } catch {
                write.fail(Failure.database(error))
                continue
            }
            if !write.run(transaction) { try? database.execute("ROLLBACK TO write") }
            try? database.execute("RELEASE write")
        }
        do {
            try database.commit()
        } catch {
            database.rollback()
            for write in batch { write.fail(Failure.database(error)) }
            return
        }
        let succeeded = batch.filter(\.succeeded).count
        statisticsLock.withLock {
            statistics.commits += 1
            statistics.writes += succeeded
        }
        for write in batch { write.committed() }
    }
}

/// One caller's write waiting for a transaction. `@unchecked Sendable`: created by its caller, run by whichever
/// caller writes the batch, and read back by its caller only after `isFinished` was set under the store's condition.
private protocol PendingWrite: AnyObject {
    var isFinished: Bool { get set }
    /// Runs the body; returns false when it threw (its savepoint is then rolled back).
    func run(_ transaction: StoreTransaction) -> Bool
    func fail(_ error: any Error)
    /// The transaction committed: the after-commit work runs.
    func committed()
    /// The body ran and did not throw.
    var succeeded: Bool { get }
}

private final class WriteJob<T>: PendingWrite, @unchecked Sendable {
    private let body: (StoreTransaction) throws -> T
    private let afterCommit: (T) -> Void
    private var result: Result<T, any Error>?
    var isFinished = false

    init(body: @escaping (StoreTransaction) throws -> T, afterCommit: @escaping (T) -> Void) {
        self.body = body
        self.afterCommit = afterCommit
    }

    func run(_ transaction: StoreTransaction) -> Bool {
        do {
            result = .success(try body(transaction))
            return true
        } catch let error as SQLiteError {
            result = .failure(ServerStore.Failure.database(error))
        } catch {
            result = .failure(error)
        }
        return false
    }

    func fail(_ error: any Error) { result = .failure(error) }

    var succeeded: Bool {
        if case .success = result { true } else { false }
    }

    func committed() {
        if case .success(let value) = result { afterCommit(value) }
    }

    func outcome() throws -> T {
        guard let result else {
            throw ServerStore.Failure.database(
                SQLiteError(code: 1, message: "the write never ran", context: "group commit"))
        }
        return try result.get()
    }
}
