import Foundation
import SQLite
import ServerStore
import Testing

@Suite struct ServerStoreTests {
    static func temporaryStore(key: Database.CipherKey? = nil) throws -> (ServerStore, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (try ServerStore(path: folder.appendingPathComponent("server.sqlite").path, key: key), folder)
    }

    /// What each migration after 9 added, undone newest first: a database taken back to an older version, as tg-server
    /// left it before the newer migrations existed.
    static let undo: [Int: [String]] = [
        25: ["DROP TABLE saved_gifs"],
        24: ["DROP TABLE updates_without_pts", "ALTER TABLE chats DROP COLUMN photo"],
        23: ["DROP INDEX chat_members_by_user"],
        22: ["DROP TABLE poll_votes", "DROP TABLE polls"],
        21: ["DROP TABLE notify_settings"],
        20: ["DROP TABLE scheduled_messages"],
        19: ["DROP TABLE drafts"],
        18: ["DROP TABLE chat_reactions", "DROP TABLE message_reactions"],
        17: ["DROP TABLE blocks"],
        16: [
            "DROP TABLE privacy_rules", "DROP TABLE presences", "DROP INDEX contacts_by_user",
            "DROP INDEX dialogs_by_peer",
        ],
        15: ["ALTER TABLE messages DROP COLUMN media_unread"],
        14: ["DROP INDEX chats_by_migrated_to", "ALTER TABLE chats DROP COLUMN migrated_to"],
        13: ["ALTER TABLE channels DROP COLUMN photo"],
        12: [
            "ALTER TABLE channels DROP COLUMN slowmode_seconds", "ALTER TABLE channels DROP COLUMN signatures",
            "ALTER TABLE channels DROP COLUMN default_banned_rights",
            "ALTER TABLE channel_members DROP COLUMN last_post",
            "ALTER TABLE channel_messages DROP COLUMN post_author",
            "ALTER TABLE chats DROP COLUMN default_banned_rights",
        ],
        11: ["DROP TABLE chat_invites", "DROP TABLE chat_invite_importers"],
        10: [
            "DROP INDEX messages_pinned", "DROP INDEX channel_messages_pinned",
            "ALTER TABLE messages DROP COLUMN pinned",
            "ALTER TABLE channel_messages DROP COLUMN pinned",
        ],
    ]

    /// Takes the database at `path` back to `version` (at least 9), setting its `user_version`.
    static func downgrade(_ path: String, to version: Int) throws {
        let database = try Database(path: path)
        for migration in (version + 1...Int(ServerStore.knownSchemaVersion)).reversed() {
            for statement in undo[migration] ?? [] { try database.execute(statement) }
        }
        try database.execute("PRAGMA user_version = \(version)")
    }

    static func user(_ id: Int64) -> UserRecord {
        UserRecord(
            id: id, accessHash: id * 7, phone: "99966\(id)", firstName: "User \(id)", lastName: "", dc: 2, created: 1000
        )
    }

    @Test func migrationsRunOnceAndReopeningKeepsData() throws {
        let (store, folder) = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try store.schemaVersion() == ServerStore.knownSchemaVersion && ServerStore.knownSchemaVersion == 25)
        try store.write { tx in try tx.insert(Self.user(1)) }
        let reopened = try ServerStore(path: store.path)
        #expect(try reopened.schemaVersion() == ServerStore.knownSchemaVersion)
        #expect(try reopened.read { tx in try tx.user(id: 1) } == Self.user(1))
    }

    @Test func aThrowingWriteLeavesNothingBehind() throws {
        struct Planted: Error {}
        let (store, folder) = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: Planted.self) {
            try store.write { tx in
                try tx.insert(Self.user(1))
                throw Planted()
            }
        }
        #expect(try store.read { tx in try tx.user(id: 1) } == nil)
    }

    @Test func usernamesAreUniqueWithoutCase() throws {
        let (store, folder) = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        var first = Self.user(1)
        first.username = "Alice_1"
        var second = Self.user(2)
        second.username = "alice_1"
        try store.write { tx in try tx.insert(first) }
        #expect(throws: ServerStore.Failure.self) { try store.write { tx in try tx.insert(second) } }
        #expect(try store.read { tx in try tx.user(username: "ALICE_1") }?.id == 1)
    }

    /// 30 messages 1…30 in one conversation; every getHistory offset form against the list it must cut.
    @Test func historyPagesAsTheDocsDescribe() throws {
        let (store, folder) = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.write { tx in
            try tx.insert(Self.user(1))
            for n in 1...30 {
                let id = try tx.allocateMessageId(owner: 1)
                try tx.insert(
                    MessageRecord(
                        owner: 1, id: id, globalId: Int64(n), peer: .user(2), fromId: 1, outgoing: true,
                        date: Int32(1000 + n), text: "m\(n)"))
            }
        }
        func ids(_ query: HistoryQuery) throws -> [Int64] {
            try store.read { tx in try tx.history(owner: 1, peer: .user(2), query) }.map(\.id)
        }
        #expect(try ids(HistoryQuery(limit: 5)) == [30, 29, 28, 27, 26])
        #expect(try ids(HistoryQuery(offsetId: 10, limit: 3)) == [9, 8, 7])
        #expect(try ids(HistoryQuery(offsetId: 10, addOffset: 2, limit: 3)) == [7, 6, 5])
        // A negative add_offset reaches newer messages: the docs' way to load around a message.
        #expect(try ids(HistoryQuery(offsetId: 10, addOffset: -2, limit: 4)) == [11, 10, 9, 8])
        #expect(try ids(HistoryQuery(offsetId: 10, addOffset: -5, limit: 3)) == [14, 13, 12])
        #expect(try ids(HistoryQuery(offsetDate: 1005, limit: 2)) == [4, 3])
        #expect(try ids(HistoryQuery(limit: 100, maxId: 5)) == [4, 3, 2, 1])
        #expect(try ids(HistoryQuery(limit: 3, minId: 27)) == [30, 29, 28])
        // max_id and min_id filter the page offset and limit chose, as Telegram applies them (after): max_id far
        // below the newest message alone finds nothing; with offset_id the window is cut, not moved.
        #expect(try ids(HistoryQuery(limit: 5, maxId: 10)) == [])
        #expect(try ids(HistoryQuery(offsetId: 11, limit: 5, maxId: 9)) == [8, 7, 6])
        #expect(try ids(HistoryQuery(offsetId: 11, limit: 5, minId: 7)) == [10, 9, 8])
        #expect(try ids(HistoryQuery(limit: 0)) == [])
    }

    @Test func ptsMovesByEachUpdatesCountAndTheLogReadsBackInOrder() throws {
        let (store, folder) = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.write { tx in try tx.insert(Self.user(1)) }
        let pts = try store.write { tx in
            [
                try tx.appendUpdate(owner: 1, ptsCount: 1, date: 1) { [UInt8(truncatingIfNeeded: $0)] },
                try tx.appendUpdate(owner: 1, ptsCount: 3, date: 2) { [UInt8(truncatingIfNeeded: $0)] },
                try tx.appendUpdate(owner: 1, ptsCount: 1, date: 3) { [UInt8(truncatingIfNeeded: $0)] },
            ]
        }
        #expect(pts == [1, 4, 5])
        let log = try store.read { tx in try tx.updates(owner: 1, after: 1, limit: 10) }
        #expect(log.map(\.pts) == [4, 5])
        #expect(log.map(\.body) == [[4], [5]])
        #expect(try store.read { tx in try tx.updateState(userId: 1) }?.pts == 5)
    }

    @Test func anEncryptedDatabaseNeedsItsKey() throws {
        let key = try #require(
            Database.CipherKey(key: Array(repeating: 7, count: 32), salt: Array(repeating: 9, count: 16)))
        let (store, folder) = try Self.temporaryStore(key: key)
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.write { tx in try tx.insert(Self.user(1)) }
        try store.checkpoint()
        // The header's first 32 bytes stay plain (as Postbox's), the pages do not: no stored text shows.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store.path))
        #expect(bytes.count > 4096)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("User 1"))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("999661"))
        #expect(try ServerStore(path: store.path, key: key).read { tx in try tx.user(id: 1) } != nil)
        #expect(throws: ServerStore.Failure.self) { _ = try ServerStore(path: store.path) }
    }
}

/// Group commit: writes from many threads at once share transactions, each keeps its own result, and one that
/// throws rolls back only its own work.
@Suite struct ServerStoreGroupCommitTests {
    struct Planted: Error {}

    @Test func concurrentWritersShareCommitsAndFailAlone() throws {
        let (store, folder) = try ServerStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.write { tx in try tx.insert(ServerStoreTests.user(1)) }
        let results = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 400) { n in
            do {
                let pts = try store.write { tx -> Int64 in
                    let pts = try tx.appendUpdate(owner: 1, ptsCount: 1, date: Int32(n)) { _ in [UInt8(n % 256)] }
                    if n % 10 == 0 { throw Planted() }
                    return pts
                }
                results.add(n, .success(pts))
            } catch {
                results.add(n, .failure(error))
            }
        }
        let all = results.all
        #expect(all.count == 400)
        // Every tenth write threw: its update is not stored, and it got its own error back.
        #expect(
            all.filter { $0.key % 10 == 0 }.allSatisfy {
                if case .failure(let error) = $0.value { return error is Planted }; return false
            })
        let stored = try store.read { tx in try tx.updates(owner: 1, after: 0, limit: 1000) }
        #expect(stored.count == 360)
        // The others got the pts their update was stored at, each once: 1…360.
        let ptsGiven = all.compactMap {
            if case .success(let pts) = $0.value { return pts }; return nil
        }.sorted()
        #expect(ptsGiven == Array(1...360))
        #expect(stored.map(\.pts) == Array(1...360))
        #expect(try store.read { tx in try tx.updateState(userId: 1) }?.pts == 360)
    }

    final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Int: Result<Int64, any Error>] = [:]

        func add(_ n: Int, _ result: Result<Int64, any Error>) {
            lock.lock()
            results[n] = result
            lock.unlock()
        }

        var all: [Int: Result<Int64, any Error>] {
            lock.lock()
            defer { lock.unlock() }
            return results
        }
    }
}

/// `--db-key-file`: created owner-only with a fresh key when missing, read back the same, refused when others can read
/// it or when it is not 96 hex digits.
@Suite struct DatabaseKeyFileTests {
    @Test func aMissingFileIsCreatedOwnerOnlyAndReadBackTheSame() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("db-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db.key").path
        let (created, wasCreated) = try DatabaseKeyFile.loadOrCreate(path)
        #expect(wasCreated)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue == 0o600)
        let (loaded, createdAgain) = try DatabaseKeyFile.loadOrCreate(path)
        #expect(!createdAgain && loaded == created)
        // The key never shows in a description.
        #expect(!String(describing: loaded).contains(created.key.map { String(format: "%02x", $0) }.joined()))

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(throws: DatabaseKeyFile.Failure.self) { _ = try DatabaseKeyFile.loadOrCreate(path) }

        let bad = folder.appendingPathComponent("bad.key").path
        FileManager.default.createFile(
            atPath: bad, contents: Data("not hex\n".utf8), attributes: [.posixPermissions: 0o600])
        #expect(throws: DatabaseKeyFile.Failure.self) { _ = try DatabaseKeyFile.loadOrCreate(bad) }
    }
}
