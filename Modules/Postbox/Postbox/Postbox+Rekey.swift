import SQLite
public import SwiftSignalKit
import ValueBox

/// The steps of a two-phase rekey, reported as each completes (a test can stop the process at any of them).
public enum PostboxRekeyPhase: String, Sendable, CaseIterable {
    /// The new key is stored in `<key file>.pending`; the database is still under the old key.
    case pendingKeyRecorded
    /// Every read transaction has finished and the reader connections are closed.
    case readersDrained
    /// The database is re-encrypted under the new key (durably); the key file still holds the old key.
    case databaseRekeyed
    /// The key file holds the new key and the pending file is gone.
    case keyCommitted
}

/// Rekeying so that at every instant one of the stored keys opens the database: the new key is recorded beside the
/// current one before the database changes, and the key file is replaced only after the re-encryption is durable.
/// Opening with a key file finishes or rolls back a rekey that a crash interrupted.
extension Postbox {
    /// Opens the Postbox whose key is stored in `keyFile`, first finishing or rolling back an interrupted rekey: when
    /// `<key file>.pending` exists, the stored key is tried, then the pending one; whichever opens the database
    /// becomes the stored key and the pending file is removed.
    ///
    /// Throws `.keyFile` when the key file is missing or unreadable, `.wrongKeyOrNotADatabase` when neither key opens
    /// the database. `writerQueue` as for `open(accountPath:encryption:)`.
    public static func open(
        accountPath: String, keyFile: PostboxKeyFile, cacheSizeKiB: Int = 16_384,
        globalMessageIds: Set<GlobalMessageIdsNamespace> = [], writerQueue: Queue? = nil,
        progress: ((Float) -> Void)? = nil
    ) throws(PostboxError) -> Postbox {
        let key = try resolveStoredKey(databasePath: accountPath + "/postbox/db/db_sqlite", keyFile: keyFile)
        return try open(
            accountPath: accountPath, encryption: key, cacheSizeKiB: cacheSizeKiB, globalMessageIds: globalMessageIds,
            writerQueue: writerQueue, progress: progress)
    }

    /// The key that opens the database at `databasePath`, after settling an interrupted rekey (see
    /// `open(accountPath:keyFile:)`).
    static func resolveStoredKey(
        databasePath: String, keyFile: PostboxKeyFile
    ) throws(PostboxError) -> PostboxEncryptionParameters {
        try keyFile.withLock { () throws(PostboxError) -> PostboxEncryptionParameters in
            // A writer killed between creating its temporary file and renaming it leaves a copy of a key behind.
            keyFile.removeTemporaryFiles()
            guard let pending = try keyFile.readPending() else { return try keyFile.read() }
            let current: PostboxEncryptionParameters?
            do {
                current = try keyFile.read()
            } catch {
                // Phase three replaces the key file atomically, so it is only missing if someone removed it.
                current = nil
            }
            if let current {
                let currentOpens = FileSystem.exists(databasePath) ? try opens(databasePath, current) : true
                if currentOpens {
                    keyFile.discardPending()
                    return current
                }
            }
            if try opens(databasePath, pending) {
                try keyFile.commitPending(pending)
                return pending
            }
            throw .wrongKeyOrNotADatabase(path: databasePath)
        }
    }

    /// Whether `key` opens the database (a fresh connection reading the schema).
    private static func opens(_ path: String, _ key: PostboxEncryptionParameters) throws(PostboxError) -> Bool {
        guard let cipherKey = cipherKey(key) else { throw .invalidEncryptionParameters }
        do {
            try Database.confirmKey(cipherKey, path: path)
            return true
        } catch  where error.isNotADatabase {
            return false
        } catch {
            throw .storage(error.description)
        }
    }

    /// Re-encrypts the database under `newKey` and stores it in `keyFile`, in three phases:
    /// 1. the new key is written to `<key file>.pending` (owner-only, synced);
    /// 2. read transactions are drained, their connections closed, and the database is re-encrypted in one
    ///    transaction made durable (`synchronous = FULL`), then proven by opening it with the new key;
    /// 3. the key file is replaced by the new key and the pending file removed.
    ///
    /// A crash before phase 2 commits leaves the database under the old key (still in the key file); a crash after
    /// leaves it under the new one (in the pending file): `open(accountPath:keyFile:)` settles either. Readers
    /// reopen with the new key; none from before the rekey is used again. `keyFile` must hold the key this Postbox
    /// is open with. `phase` is told as each phase completes.
    public func rekey(
        to newKey: PostboxEncryptionParameters, keyFile: PostboxKeyFile,
        phase: ((PostboxRekeyPhase) -> Void)? = nil
    ) throws(PostboxError) {
        do {
            try syncOnQueue { () throws -> Void in
                guard let oldKey = encryption, let oldCipher = Self.cipherKey(oldKey) else {
                    throw PostboxError.storage("rekey: this Postbox is not encrypted; open it with a key to rekey it")
                }
                guard let newCipher = Self.cipherKey(newKey) else { throw PostboxError.invalidEncryptionParameters }
                try keyFile.withLock { () throws(PostboxError) -> Void in
                    guard try keyFile.read() == oldKey else {
                        throw .keyFile(
                            path: keyFile.path,
                            detail: "does not hold the key this Postbox is open with; a rekey needs the stored key "
                                + "to be the current one")
                    }
                    try keyFile.recordPending(newKey)
                    phase?(.pendingKeyRecorded)
                    try rekeyDatabase(from: oldCipher, to: newCipher, keyFile: keyFile, phase: phase)
                    // The database is under the new key from here on, whatever happens to the key file.
                    encryption = newKey
                    readers.reopen(rekeyedTo: newCipher)
                    try keyFile.commitPending(newKey)
                    phase?(.keyCommitted)
                }
                // The rekey wrote every page to the WAL: fold it into the file (best effort; readers may hold it).
                try? valueBox.checkpoint(truncate: true)
            }
        } catch {
            throw PostboxError.from(error)
        }
    }

    /// Phase 2: drains the readers and re-encrypts the file. On failure, the pending key is removed when the old
    /// key still opens the database, and kept (for the next open to settle) when that cannot be shown.
    private func rekeyDatabase(
        from oldCipher: Database.CipherKey, to newCipher: Database.CipherKey, keyFile: PostboxKeyFile,
        phase: ((PostboxRekeyPhase) -> Void)?
    ) throws(PostboxError) {
        let stillOut = readers.drain(timeout: 30)
        guard stillOut == 0 else {
            keyFile.discardPending()
            throw .storage("rekey: \(stillOut) read transaction(s) still running after 30 s; nothing was changed")
        }
        phase?(.readersDrained)
        valueBox.clearStatements()
        do {
            try valueBox.database.rekey(to: newCipher, from: oldCipher)
        } catch {
            let underOldKey = (try? Database.confirmKey(oldCipher, path: databasePath)) != nil
            if underOldKey {
                keyFile.discardPending()
                readers.reopen()
                throw .storage("rekey failed, nothing was changed: \(error.description)")
            }
            guard (try? Database.confirmKey(newCipher, path: databasePath)) != nil else {
                readers.reopen()
                throw .storage(
                    "rekey failed and neither key could be confirmed: \(error.description); reopen the Postbox with "
                        + "its key file to settle it")
            }
            // The re-encryption did commit; carry on to phase 3.
        }
        phase?(.databaseRekeyed)
    }
}
