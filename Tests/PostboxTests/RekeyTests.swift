import Dispatch
import Foundation
import Postbox
import PostboxTesting
import SQLite
import SecretFiles
import Synchronization
import Testing

let rekeyedKey = try! PostboxEncryptionParameters(
    key: (0..<32).map { UInt8(truncatingIfNeeded: 0x9d &+ $0 &* 53) }, salt: (0..<16).map { UInt8(0xe0 + $0) })

/// Whether `key` opens the database at `path` (a fresh connection reading the schema).
func keyOpens(_ key: PostboxEncryptionParameters, _ path: String) -> Bool {
    (try? Database.confirmKey(Database.CipherKey(key: key.key, salt: key.salt)!, path: path)) != nil
}

/// An account whose key is stored in `<directory>/keys/key`, holding `count` messages in chat 1.
func makeKeyedAccount(
    messages count: Int32, textLength: Int = 40, key: PostboxEncryptionParameters = testKey
) throws -> (directory: TemporaryDirectory, account: String, keyFile: PostboxKeyFile) {
    registerPostboxTestTypes()
    let directory = TemporaryDirectory(prefix: "postbox-rekey")
    try SecretFile.createDirectory(directory.path + "/keys")
    let keyFile = PostboxKeyFile(path: directory.path + "/keys/key")
    try keyFile.create(key)
    let account = directory.path + "/account-1"
    let postbox = try Postbox.open(accountPath: account, keyFile: keyFile)
    try postbox.transactionSync { tx in
        try tx.updatePeers([TestPeer(id: peer(1), name: "chat")])
        try tx.addMessages((1...count).map { message(peer(1), $0, text: rekeyText($0, textLength)) })
    }
    try postbox.checkpoint(truncate: true)
    return (directory, account, keyFile)
}

/// The text of message `id` in a keyed account.
func rekeyText(_ id: Int32, _ length: Int) -> String {
    let base = "message \(id) phở "
    return base + String(repeating: "x", count: max(0, length - base.count))
}

/// The (id, text) of every message in chat 1, oldest first.
func storedMessages(_ postbox: Postbox) throws -> [(Int32, String)] {
    try postbox.readTransactionSync { tx in
        try tx.earlierMessages(peerId: peer(1), before: nil, count: Int.max).map { ($0.id.id, $0.text) }.reversed()
    }
}

/// The two-phase rekey in one process: readers are drained and never come back with the old key, the key file
/// follows the database, and an interrupted rekey is settled on open whichever side of the commit it stopped.
@Suite struct RekeyTests {
    @Test func rekeyStoresTheNewKeyAndReadersUseIt() throws {
        let (directory, account, keyFile) = try makeKeyedAccount(messages: 30)
        defer { directory.remove() }
        let postbox = try Postbox.open(accountPath: account, keyFile: keyFile)
        // Fill the reader pool with connections under the old key.
        DispatchQueue.concurrentPerform(iterations: 4) { _ in _ = try? storedMessages(postbox) }
        var phases: [PostboxRekeyPhase] = []
        try postbox.rekey(to: rekeyedKey, keyFile: keyFile) { phases.append($0) }
        #expect(phases == PostboxRekeyPhase.allCases)
        #expect(try keyFile.read() == rekeyedKey)
        #expect(!FileManager.default.fileExists(atPath: keyFile.pendingPath))
        #expect(SecretFile.mode(of: keyFile.path) == 0o600)
        #expect(SecretFile.mode(of: keyFile.path + ".lock") == 0o600)
        #expect(keyOpens(rekeyedKey, postbox.databasePath) && !keyOpens(testKey, postbox.databasePath))
        for _ in 0..<3 {
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                #expect((try? storedMessages(postbox).count) == 30)
            }
        }
        try postbox.transactionSync { tx in try tx.addMessages([message(peer(1), 31)]) }
        #expect(try storedMessages(postbox).count == 31)
    }

    /// A read transaction that is running when the rekey starts holds the rekey back until it ends, and its
    /// connection (keyed with the old key) never serves another read. (Threads of their own: on two cores a blocked
    /// dispatch worker can keep the next block from starting, which would hold the rekey back for the wrong reason.)
    @Test func readerCheckedOutDuringRekeyIsNotReusedWithTheOldKey() throws {
        let (directory, account, keyFile) = try makeKeyedAccount(messages: 20)
        defer { directory.remove() }
        let postbox = try Postbox.open(accountPath: account, keyFile: keyFile)
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        let rekeyDone = DispatchSemaphore(value: 0)
        let counts = Mutex<[Int]>([])
        let phases = Mutex<[PostboxRekeyPhase]>([])
        let rekeyError = Mutex<String?>(nil)
        Thread.detachNewThread {
            _ = try? postbox.readTransactionSync { tx in
                // The snapshot is taken by the first read, before the rekey starts.
                let before = try tx.earlierMessages(peerId: peer(1), before: nil, count: Int.max).count
                inside.signal()
                release.wait()
                let after = try tx.earlierMessages(peerId: peer(1), before: nil, count: Int.max).count
                counts.withLock { $0 += [before, after] }
            }
            readerDone.signal()
        }
        try #require(inside.wait(timeout: .now() + 10) == .success)
        Thread.detachNewThread {
            do {
                try postbox.rekey(to: rekeyedKey, keyFile: keyFile) { phase in phases.withLock { $0.append(phase) } }
            } catch {
                rekeyError.withLock { $0 = "\(error)" }
            }
            rekeyDone.signal()
        }
        // The rekey records the pending key, then waits for the running read transaction before touching the file.
        #expect(rekeyDone.wait(timeout: .now() + 0.5) == .timedOut)
        #expect(phases.withLock { $0 } == [.pendingKeyRecorded])
        #expect(keyOpens(testKey, postbox.databasePath))
        release.signal()
        try #require(readerDone.wait(timeout: .now() + 10) == .success)
        try #require(rekeyDone.wait(timeout: .now() + 30) == .success)
        #expect(rekeyError.withLock { $0 } == nil)
        #expect(counts.withLock { $0 } == [20, 20])
        #expect(phases.withLock { $0 } == PostboxRekeyPhase.allCases)
        // Every later read works: no connection from before the rekey is handed out again (reads one at a time,
        // so the pool's most recent connection — the one that was out during the rekey, if it came back — is used).
        for _ in 0..<3 { #expect((try? storedMessages(postbox).count) == 20) }
        DispatchQueue.concurrentPerform(iterations: 3) { _ in #expect((try? storedMessages(postbox).count) == 20) }
        #expect(keyOpens(rekeyedKey, postbox.databasePath) && !keyOpens(testKey, postbox.databasePath))
    }

    /// A key file that does not hold the key the Postbox is open with is refused before anything is written: a
    /// crash during that rekey would have left no stored key that opens the database.
    @Test func rekeyNeedsTheStoredKeyToBeTheCurrentOne() throws {
        let (directory, account, keyFile) = try makeKeyedAccount(messages: 3)
        defer { directory.remove() }
        let postbox = try Postbox.open(accountPath: account, keyFile: keyFile)
        let other = PostboxKeyFile(path: directory.path + "/keys/other")
        try other.create(rekeyedKey)
        let error = try #require(throws: PostboxError.self) { try postbox.rekey(to: testKey, keyFile: other) }
        if case .keyFile(let path, _) = error { #expect(path == other.path) } else { Issue.record("\(error)") }
        #expect(!FileManager.default.fileExists(atPath: other.pendingPath))
        #expect(keyOpens(testKey, postbox.databasePath))
    }

    /// Interrupted before the database changed: the pending key is dropped and the stored key kept.
    @Test func openRollsBackAPendingKeyTheDatabaseNeverGot() throws {
        let (directory, account, keyFile) = try makeKeyedAccount(messages: 5)
        defer { directory.remove() }
        try SecretFile.create(rekeyedKey.key + rekeyedKey.salt, at: keyFile.pendingPath)
        let postbox = try Postbox.open(accountPath: account, keyFile: keyFile)
        #expect(try storedMessages(postbox).count == 5)
        #expect(try keyFile.read() == testKey)
        #expect(!FileManager.default.fileExists(atPath: keyFile.pendingPath))
    }

    /// Interrupted after the database was re-encrypted: the pending key becomes the stored key, in the format the
    /// key file had (hex here).
    @Test func openFinishesARekeyTheKeyFileMissed() throws {
        let (directory, account, keyFile) = try makeKeyedAccount(messages: 5)
        defer { directory.remove() }
        try SecretFile.write(Array((testKeyHex + "\n").utf8), to: keyFile.path)
        let database = try Database(path: account + "/postbox/db/db_sqlite")
        let oldCipher = Database.CipherKey(key: testKey.key, salt: testKey.salt)!
        try database.applyKey(oldCipher)
        try database.rekey(to: Database.CipherKey(key: rekeyedKey.key, salt: rekeyedKey.salt)!, from: oldCipher)
        try SecretFile.create(rekeyedKey.key + rekeyedKey.salt, at: keyFile.pendingPath)
        // A temporary file left by a killed write is removed too.
        try SecretFile.create(testKey.key + testKey.salt, at: keyFile.path + ".tmp-deadbeef")

        let postbox = try Postbox.open(accountPath: account, keyFile: keyFile)
        #expect(try storedMessages(postbox).count == 5)
        #expect(try keyFile.read() == rekeyedKey)
        let stored = try SecretFile.read(keyFile.path)
        #expect(stored.count == 97 && stored.last == 0x0a)
        #expect(!FileManager.default.fileExists(atPath: keyFile.pendingPath))
        #expect(!FileManager.default.fileExists(atPath: keyFile.path + ".tmp-deadbeef"))
        #expect(SecretFile.mode(of: keyFile.path) == 0o600)
    }

    /// When neither stored key opens the database, opening fails as a wrong key and leaves both files alone.
    @Test func openWithNeitherKeyFailsAndKeepsBothFiles() throws {
        let (directory, account, keyFile) = try makeKeyedAccount(messages: 2)
        defer { directory.remove() }
        let stranger = try PostboxEncryptionParameters(hex: String(repeating: "ab", count: 48))
        try SecretFile.write(stranger.key + stranger.salt, to: keyFile.path)
        try SecretFile.create(rekeyedKey.key + rekeyedKey.salt, at: keyFile.pendingPath)
        let error = try #require(throws: PostboxError.self) { try Postbox.open(accountPath: account, keyFile: keyFile) }
        #expect(error == .wrongKeyOrNotADatabase(path: account + "/postbox/db/db_sqlite"))
        #expect(try keyFile.read() == stranger)
        #expect(try SecretFile.read(keyFile.pendingPath) == rekeyedKey.key + rekeyedKey.salt)
    }

    @Test func keyFileThatIsALinkIsRefused() throws {
        let (directory, account, keyFile) = try makeKeyedAccount(messages: 1)
        defer { directory.remove() }
        let link = directory.path + "/keys/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: keyFile.path)
        let error = try #require(throws: PostboxError.self) {
            try Postbox.open(accountPath: account, keyFile: PostboxKeyFile(path: link))
        }
        #expect(error.description.contains("symbolic link"), "\(error)")
    }
}
