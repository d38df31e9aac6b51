import Dispatch
import Glibc
public import MediaBox
import SQLite
public import SwiftSignalKit
import Synchronization
import ValueBox

/// The encrypted message database of one account: tables in one SQLCipher file, written by transactions on a
/// single writer queue and read by concurrent read transactions on separate WAL connections (Telegram-iOS
/// `Postbox.swift`).
///
/// `@unchecked Sendable`: the writer connection and every mutable field except the reader pool and observer list
/// are touched only on `queue`; the reader pool locks itself and the observers are guarded by mutexes.
public final class Postbox: @unchecked Sendable {
    /// `<account dir>/postbox`.
    public let basePath: String
    /// `<account dir>/postbox/db/db_sqlite`.
    public let databasePath: String
    /// The account's media files under `<postbox>/media`.
    public let mediaBox: MediaBox
    private let failureHandler = Mutex<@Sendable (PostboxError) -> Void>({ error in
        let line = "postbox: transaction failed: \(error)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    })
    /// The serial queue every write transaction runs on: the opener's (`open(writerQueue:)`), or a Dispatch queue of
    /// its own.
    let queue: Queue

    let valueBox: SqliteValueBox
    let tables: PostboxTables
    /// The open live views (writer queue only).
    let viewTracker = ViewTracker()
    /// The cross-process wake-up for views.
    let notifier: ChangeNotifier
    /// The key the database is open with (writer queue only).
    var encryption: PostboxEncryptionParameters?
    /// Reader connections for read transactions, drained and reopened around a rekey.
    let readers: ReaderPool
    private let observers = Mutex<[Int: @Sendable (PostboxTransaction) -> Void]>([:])
    private let externalObservers = Mutex<[Int: @Sendable () -> Void]>([:])
    private let nextObserverId = Atomic<Int>(0)
    /// The metadata transaction-state counter as of this process's last look; -1 forces every view to reload.
    var lastTransactionStateVersion: Int64 = 0
    /// How many messages committed transactions have rendered into their operations (on the queue; for tests).
    private var renderedMessageTotal = 0
    /// The cost of the write transactions so far (writer queue only; `writeStatistics()`).
    var writeStatisticsTotal = PostboxWriteStatistics()

    /// Opens (creating when missing) the Postbox of the account at `accountPath`, running schema upgrades.
    ///
    /// Throws `PostboxError.wrongKeyOrNotADatabase` without modifying the file when the key is wrong or the file is
    /// not a Postbox database. `cacheSizeKiB` bounds each connection's page cache (the writer and each reader); a
    /// small process such as the notification service passes less. `progress` receives upgrade progress (0…1) when
    /// an upgrade runs. `writerQueue` is the queue its transactions run on (a simulation passes one of its own); by
    /// default the Postbox makes a Dispatch queue of its own. It must be serial — never two of its tasks at once:
    /// the writer's state is unlocked, and the views' wake-up from another process's write runs on it directly.
    public static func open(
        accountPath: String, encryption: PostboxEncryptionParameters?, cacheSizeKiB: Int = 16_384,
        globalMessageIds: Set<GlobalMessageIdsNamespace> = [], writerQueue: Queue? = nil,
        progress: ((Float) -> Void)? = nil
    ) throws(PostboxError) -> Postbox {
        let basePath = accountPath + "/postbox"
        do {
            try FileSystem.createDirectory(basePath + "/db")
        } catch {
            throw .storage("cannot create \(basePath)/db: \(error)")
        }
        return try Postbox(
            basePath: basePath, encryption: encryption, cacheSizeKiB: cacheSizeKiB, globalMessageIds: globalMessageIds,
            writerQueue: writerQueue, progress: progress)
    }

    private let cacheSizeKiB: Int

    private init(
        basePath: String, encryption: PostboxEncryptionParameters?, cacheSizeKiB: Int,
        globalMessageIds: Set<GlobalMessageIdsNamespace>, writerQueue: Queue?, progress: ((Float) -> Void)?
    )
        throws(PostboxError)
    {
        self.basePath = basePath
        self.databasePath = basePath + "/db/db_sqlite"
        self.encryption = encryption
        self.readers = ReaderPool(key: Self.cipherKey(encryption))
        self.cacheSizeKiB = cacheSizeKiB
        self.queue = writerQueue ?? Queue(queue: DispatchQueue(label: "org.telegraph.postbox.Postbox"))
        do {
            valueBox = try SqliteValueBox(
                path: databasePath, key: Self.cipherKey(encryption), cacheSizeKiB: cacheSizeKiB)
        } catch {
            throw PostboxError(error)
        }
        tables = PostboxTables(valueBox: valueBox)
        tables.globalMessageIds.namespaces = globalMessageIds
        notifier = ChangeNotifier(path: basePath + "/db/ipc-notify")
        do {
            mediaBox = try MediaBox(postboxPath: basePath)
        } catch {
            throw .storage("cannot create \(basePath)/media: \(error)")
        }
        try runUpgrades(progress: progress)
    }

    static func cipherKey(_ parameters: PostboxEncryptionParameters?) -> Database.CipherKey? {
        parameters.flatMap { Database.CipherKey(key: $0.key, salt: $0.salt) }
    }

    private func runUpgrades(progress: ((Float) -> Void)?) throws(PostboxError) {
        do {
            try syncOnQueue { () throws -> Void in
                try valueBox.begin()
                do {
                    let transaction = Transaction(tables: tables, isReadOnly: false)
                    var version = try tables.metadata.userVersion()
                    if version == nil {
                        // A new database, or one with no Postbox metadata: a non-empty file must be a Postbox.
                        if try valueBox.count(tables.history.table) > 0 {
                            throw PostboxError.corrupt(path: databasePath, detail: "no schema version")
                        }
                        version = PostboxSchema.currentVersion
                    }
                    guard var current = version else { return }
                    if current > PostboxSchema.currentVersion {
                        throw PostboxError.newerSchema(found: current, supported: PostboxSchema.currentVersion)
                    }
                    // Each pending step gets an equal share of the reported progress, so it only rises.
                    let pending = PostboxSchema.upgrades.filter { $0.from >= current }
                    for (step, upgrade) in pending.enumerated() where upgrade.from == current {
                        try upgrade.run(transaction, { progress?((Float(step) + $0) / Float(pending.count)) })
                        current = upgrade.to
                    }
                    try tables.metadata.setUserVersion(current)
                    lastTransactionStateVersion = try tables.metadata.transactionStateVersion()
                    try valueBox.commit()
                } catch {
                    valueBox.rollback()
                    throw error
                }
            }
        } catch {
            throw PostboxError.from(error)
        }
    }

    /// How many messages committed transactions have rendered into their operations records so far.
    func renderedMessageCount() -> Int { syncOnQueue { renderedMessageTotal } }

    func syncOnQueue<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        if queue.isCurrent() { return try body() }
        var result: Result<T, Failure>?
        queue.sync { result = Result { () throws(Failure) -> T in try body() } }
        return try result!.get()
    }

    /// Runs a write transaction on the writer queue and returns its result, blocking the caller.
    ///
    /// Everything the closure wrote is rolled back when it throws; the error is rethrown. Before commit, the
    /// derived tables are brought in step, the transaction's operations go to every transaction observer and are
    /// replayed into every open view; after commit, the views that changed push their snapshots, then the
    /// transaction's `afterCommit` actions run.
    @discardableResult
    public func transactionSync<T>(_ body: (Transaction) throws -> T) throws -> T {
        try syncOnQueue {
            let started = PostboxWriteStatistics.start()
            defer { writeStatisticsTotal.add(since: started) }
            try valueBox.begin()
            let transaction = Transaction(tables: tables, isReadOnly: false)
            // The observers of this transaction are those registered when it starts: they decide, with the open views
            // (which change only on this queue), which chats' messages the operations record renders.
            let transactionObservers = observers.withLock { $0 }
            if transactionObservers.isEmpty { transaction.renderedMessagePeers = viewTracker.renderedMessagePeers }
            // Snapshots from catching up with another process show committed data: delivered even on rollback.
            var catchUpDeliveries: [() -> Void] = []
            var replayed = false
            do {
                let stateVersion = try tables.metadata.transactionStateVersion()
                if stateVersion != lastTransactionStateVersion {
                    catchUpDeliveries = try catchUpWithExternalWrites(transaction, stateVersion: stateVersion)
                }
                let result = try body(transaction)
                var operations = try transaction.beforeCommit()
                var deliveries: [() -> Void] = []
                if !operations.isEmpty {
                    operations.transactionStateVersion = try tables.metadata.incrementTransactionStateVersion()
                    try tables.changeLog.append(operations.transactionStateVersion, ExternalChanges(operations))
                    let stillRegistered = observers.withLock { current in
                        transactionObservers.filter { current[$0.key] != nil }
                    }
                    for observer in stillRegistered.values { observer(operations) }
                    replayed = true
                    deliveries = try viewTracker.replay(transaction, operations)
                } else {
                    operations.transactionStateVersion = stateVersion
                }
                try valueBox.commit()
                renderedMessageTotal += transaction.renderedMessageCount
                lastTransactionStateVersion = operations.transactionStateVersion
                if !operations.isEmpty { notifier.post(version: operations.transactionStateVersion) }
                for delivery in catchUpDeliveries + deliveries { delivery() }
                for action in transaction.commitActions { action() }
                return result
            } catch {
                valueBox.rollback()
                for delivery in catchUpDeliveries { delivery() }
                if replayed { reloadViewsAfterRollback() }
                throw error
            }
        }
    }

    /// Called in a transaction that found the transaction-state counter moved: another process wrote. Reloads the
    /// views its writes touched (from the change log) and returns their deliveries.
    func catchUpWithExternalWrites(_ transaction: Transaction, stateVersion: Int64) throws -> [() -> Void] {
        for observer in externalObservers.withLock({ Array($0.values) }) { observer() }
        let changes =
            viewTracker.isEmpty
            ? ExternalChanges()
            : try tables.changeLog.changes(after: lastTransactionStateVersion, upTo: stateVersion)
        lastTransactionStateVersion = stateVersion
        return try viewTracker.refresh(transaction, changes)
    }

    /// Views replayed a transaction that then rolled back: their state is ahead of the database, so every view
    /// reloads (soon, on the writer queue) and emits only where the result differs from what it last delivered.
    private func reloadViewsAfterRollback() {
        lastTransactionStateVersion = -1
        queue.justDispatch { [weak self] in self?.checkExternalChanges() }
    }

    /// On the writer queue: if the transaction-state counter moved (another process wrote, or views must reload),
    /// refreshes the affected views in a read transaction on the writer connection and delivers their snapshots.
    func checkExternalChanges() {
        var deliveries: [() -> Void] = []
        do {
            try valueBox.beginRead()
            defer { valueBox.rollback() }
            let stateVersion = try tables.metadata.transactionStateVersion()
            guard stateVersion != lastTransactionStateVersion else { return }
            deliveries = try catchUpWithExternalWrites(
                Transaction(tables: tables, isReadOnly: true), stateVersion: stateVersion)
        } catch {
            reportStorageFailure(PostboxError.from(error))
        }
        for delivery in deliveries { delivery() }
    }

    /// Runs a read transaction on a reader connection of its own, concurrently with the writer and other readers;
    /// it sees the database as of its first read.
    @discardableResult
    public func readTransactionSync<T>(_ body: (Transaction) throws -> T) throws -> T {
        let reader = try readers.checkOut { key in
            do {
                return try SqliteValueBox(path: databasePath, key: key, cacheSizeKiB: cacheSizeKiB)
            } catch {
                throw PostboxError.from(error)
            }
        }
        defer { readers.checkIn(reader) }
        try reader.valueBox.beginRead()
        defer { reader.valueBox.rollback() }
        return try body(Transaction(tables: PostboxTables(valueBox: reader.valueBox), isReadOnly: true))
    }

    /// Sets what receives storage failures that a transaction signal without an error type cannot deliver
    /// (by default one line on stderr).
    public func setStorageFailureHandler(_ handler: @escaping @Sendable (PostboxError) -> Void) {
        failureHandler.withLock { $0 = handler }
    }

    /// Reports a storage failure to the handler.
    func reportStorageFailure(_ error: PostboxError) {
        failureHandler.withLock { $0 }(error)
    }

    /// Calls `observer` on the writer queue with the operations of every non-empty transaction that starts after
    /// it was added, before commit; its operations always carry the rendered inserted and updated messages.
    /// Returns a token for `removeObserver`.
    public func addTransactionObserver(_ observer: @escaping @Sendable (PostboxTransaction) -> Void) -> Int {
        let id = nextObserverId.add(1, ordering: .relaxed).newValue
        observers.withLock { $0[id] = observer }
        return id
    }

    /// Calls `observer` on the writer queue when a transaction finds that another process wrote since the last
    /// one (the metadata transaction-state counter moved).
    public func addExternalChangeObserver(_ observer: @escaping @Sendable () -> Void) -> Int {
        let id = nextObserverId.add(1, ordering: .relaxed).newValue
        externalObservers.withLock { $0[id] = observer }
        return id
    }

    /// Removes an observer added by either `add…Observer`.
    public func removeObserver(_ id: Int) {
        observers.withLock { _ = $0.removeValue(forKey: id) }
        externalObservers.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// The metadata transaction-state counter as last seen by this process.
    public var transactionStateVersion: Int64 { syncOnQueue { lastTransactionStateVersion } }

    /// Copies the WAL into the database file (`truncate` also empties the WAL file).
    public func checkpoint(truncate: Bool = false) throws(PostboxError) {
        do { try syncOnQueue { try valueBox.checkpoint(truncate: truncate) } } catch { throw PostboxError.from(error) }
    }

    /// SQLite's integrity check: `["ok"]` when sound.
    public func integrityCheck() throws(PostboxError) -> [String] {
        do { return try syncOnQueue { try valueBox.database.integrityCheck() } } catch {
            throw PostboxError.from(error)
        }
    }

    /// Table names and row counts.
    public func tableStatistics() throws(PostboxError) -> [(name: String, rows: Int64)] {
        do { return try syncOnQueue { try valueBox.tableStatistics() } } catch { throw PostboxError.from(error) }
    }

    /// The schema version stored in the database.
    public func schemaVersion() throws -> Int32? {
        try syncOnQueue { try tables.metadata.userVersion() }
    }
}
