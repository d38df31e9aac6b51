import Dispatch
import Foundation
import MediaBox
import Postbox
import PostboxTesting
import SQLite
import Synchronization
import TestVectors
import Testing

struct Abort: Error {}

@Suite struct TransactionTests {
    @Test func aThrowingTransactionRollsBackEverything() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        try postbox.transactionSync { try $0.addMessages([message(peer(1), 1)]) }
        let version = postbox.transactionStateVersion
        #expect(throws: Abort.self) {
            try postbox.transactionSync { (tx: Transaction) throws in
                try tx.addMessages([message(peer(1), 2, text: "phở"), message(peer(2), 1)])
                try tx.setPinnedItemIds([peer(2)])
                try tx.setKeychainEntry([1], forKey: "k")
                throw Abort()
            }
        }
        try postbox.readTransactionSync { (tx: Transaction) throws in
            #expect(try tx.getMessage(MessageId(peerId: peer(1), namespace: 0, id: 2)) == nil)
            #expect(try tx.searchMessages("pho", limit: 5).isEmpty)
            #expect(try tx.chatListEntries(before: nil, count: 10).count == 1)
            #expect(try tx.keychainEntryForKey("k") == nil)
        }
        #expect(postbox.transactionStateVersion == version)
    }

    @Test func writeStatisticsCountEveryWriteTransactionAndNoRead() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let before = postbox.writeStatistics()
        try postbox.transactionSync { tx in try tx.addMessages((1...200).map { message(peer(1), Int32($0)) }) }
        _ = try? postbox.transactionSync { (_: Transaction) throws in throw Abort() }
        try postbox.readTransactionSync { tx in _ = try tx.getMessage(MessageId(peerId: peer(1), namespace: 0, id: 1)) }
        let after = postbox.writeStatistics()
        #expect(after.transactions - before.transactions == 2)
        #expect(after.seconds > before.seconds)
        #expect(after.cpuSeconds > before.cpuSeconds)
        #expect(after.cpuSeconds - before.cpuSeconds <= after.seconds - before.seconds + 0.01)
    }

    @Test func afterCommitActionsRunOnceTheTransactionCommitsAndNeverOnRollback() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        // What each action saw: the entry as a reader connection reads it then (committed data only).
        let seen = Mutex<[[UInt8]?]>([])
        let record: @Sendable () -> Void = {
            let value = try? postbox.readTransactionSync { try $0.keychainEntryForKey("k") }
            seen.withLock { $0.append(value ?? nil) }
        }
        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.setKeychainEntry([1], forKey: "k")
            tx.afterCommit(record)
            #expect(seen.withLock { $0.isEmpty })  // not before the commit
        }
        #expect(seen.withLock { $0 } == [[1]])
        #expect(throws: Abort.self) {
            try postbox.transactionSync { (tx: Transaction) throws in
                try tx.setKeychainEntry([2], forKey: "k")
                tx.afterCommit(record)
                throw Abort()
            }
        }
        try postbox.transactionSync { _ in }  // a later transaction does not run the rolled-back one's actions
        #expect(seen.withLock { $0 } == [[1]])
    }

    @Test func observersReceiveTheOperationsOfEachTransaction() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let received = Mutex<[PostboxTransaction]>([])
        let token = postbox.addTransactionObserver { operations in received.withLock { $0.append(operations) } }
        let p = peer(1)
        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.updatePeers([TestPeer(id: p, name: "A")])
            try tx.addMessages([message(p, 1, flags: [.incoming]), message(p, 2)])
            try tx.addHole(peerId: p, namespace: 0, range: 10...20)
        }
        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.deleteMessages([MessageId(peerId: p, namespace: 0, id: 2)])
            try tx.applyIncomingReadMaxId(MessageId(peerId: p, namespace: 0, id: 1))
        }
        try postbox.transactionSync { _ in }
        postbox.removeObserver(token)
        try postbox.transactionSync { try $0.addMessages([message(p, 3)]) }
        let all = received.withLock { $0 }
        try #require(all.count == 2)
        let first = all[0]
        #expect(first.updatedPeers[p] != nil)
        let inserted = first.currentOperationsByPeerId[p]?.compactMap { operation -> Int32? in
            if case .insertMessage(let message) = operation { return message.id.id }
            return nil
        }
        #expect(inserted == [1, 2])
        #expect(first.chatListOperations.count == 1)
        #expect(first.holeOperations.values.first == [.insert(10...20)])
        #expect(first.updatedReadStates[p]?.count == 1)
        let second = all[1]
        #expect(second.chatListOperations.count == 2)
        #expect(second.updatedReadStates[p]?.count == 0)
        #expect(second.transactionStateVersion == first.transactionStateVersion + 1)
    }

    @Test func updatesAreRecordedInPlaceOrAsAMove() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let p = peer(1)
        let id = MessageId(peerId: p, namespace: 0, id: 1)
        try postbox.transactionSync { try $0.addMessages([message(p, 1, flags: [.unsent])]) }
        let received = Mutex<[PostboxTransaction]>([])
        _ = postbox.addTransactionObserver { operations in received.withLock { $0.append(operations) } }
        try postbox.transactionSync { tx in
            try tx.updateMessage(id) { old in
                var edited = old.toStoreMessage()
                edited.text = "edited"
                edited.flags = []
                return edited
            }
        }
        try postbox.transactionSync { tx in
            try tx.updateMessage(id) { old in
                var moved = old.toStoreMessage()
                moved.timestamp = 999
                return moved
            }
        }
        let all = received.withLock { $0 }
        try #require(all.count == 2)
        let edit = all[0].currentOperationsByPeerId[p] ?? []
        #expect(edit.count == 1)
        if case .updateMessage(let message)? = edit.first {
            #expect(message.text == "edited")
        } else {
            Issue.record("expected updateMessage, got \(edit)")
        }
        #expect(all[0].unsentOperations == [.remove(id)])
        let move = all[1].currentOperationsByPeerId[p] ?? []
        #expect(move.count == 2)
        if case .remove(let removed)? = move.first { #expect(removed.map(\.0.timestamp) == [10]) }
        if case .insertMessage(let inserted)? = move.last { #expect(inserted.timestamp == 999) }
        #expect(all[1].chatListOperations.count == 2)
    }

    @Test func readTransactionsRunConcurrentlyOnTheirOwnConnections() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        try postbox.transactionSync { tx in try tx.addMessages((1...50).map { message(peer(1), $0) }) }
        let counts = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let count = try? postbox.readTransactionSync { (tx: Transaction) throws in
                try tx.earlierMessages(peerId: peer(1), before: nil, count: 100).count
            }
            counts.withLock { $0.append(count ?? -1) }
        }
        #expect(counts.withLock { $0 } == Array(repeating: 50, count: 8))
        #expect(throws: PostboxError.readOnlyTransaction) {
            try postbox.readTransactionSync { try $0.addMessages([message(peer(1), 99)]) }
        }
    }

    @Test func aSecondConnectionsWritesAreNoticed() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        try postbox.transactionSync { try $0.addMessages([message(peer(1), 1)]) }
        let other = try Postbox.open(accountPath: directory.path + "/account-1", encryption: testKey)
        try other.transactionSync { try $0.addMessages([message(peer(1), 2)]) }
        let noticed = Atomic<Int>(0)
        _ = postbox.addExternalChangeObserver { noticed.add(1, ordering: .relaxed) }
        let seen = try postbox.transactionSync { try $0.getMessage(MessageId(peerId: peer(1), namespace: 0, id: 2)) }
        #expect(seen != nil)
        #expect(noticed.load(ordering: .relaxed) == 1)
        try postbox.transactionSync { _ in }
        #expect(noticed.load(ordering: .relaxed) == 1)
    }
}

@Suite struct OpeningTests {
    @Test func dataSurvivesReopening() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        try postbox.transactionSync { try $0.addMessages([message(peer(1), 1, text: "phở")]) }
        let reopened = try Postbox.open(accountPath: directory.path + "/account-1", encryption: testKey)
        #expect(try reopened.readTransactionSync { try $0.searchMessages("pho", limit: 1).count } == 1)
        #expect(FileManager.default.fileExists(atPath: directory.path + "/account-1/postbox/db/db_sqlite"))
        #expect(reopened.mediaBox.basePath == directory.path + "/account-1/postbox/media")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/account-1/postbox/media/short-cache"))
        #expect(try reopened.schemaVersion() == 6)
    }

    @Test func aWrongKeyFailsAndLeavesTheFileUntouched() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        try postbox.transactionSync { try $0.addMessages([message(peer(1), 1)]) }
        try postbox.checkpoint(truncate: true)
        let path = postbox.databasePath
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let wrong = try PostboxEncryptionParameters(key: Array(repeating: 1, count: 32), salt: testKey.salt)
        #expect(throws: PostboxError.wrongKeyOrNotADatabase(path: path)) {
            try Postbox.open(accountPath: directory.path + "/account-1", encryption: wrong)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(
            PostboxError.wrongKeyOrNotADatabase(path: path).description
                == "wrong key or not a Postbox database: \(path)")
    }

    @Test func garbageAndTruncatedFilesAreErrorsNotCrashes() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        try postbox.transactionSync { tx in
            try tx.addMessages((1...300).map { message(peer(1), $0, text: String(repeating: "x", count: 200)) })
        }
        try postbox.checkpoint(truncate: true)
        let valid = try Data(contentsOf: URL(fileURLWithPath: postbox.databasePath))
        var generator = SeededGenerator(seed: 9)
        for round in 0..<6 {
            let account = directory.path + "/broken-\(round)"
            try FileManager.default.createDirectory(atPath: account + "/postbox/db", withIntermediateDirectories: true)
            var bytes = [UInt8](valid)
            switch round {
            case 0: bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case 1: bytes = Array(bytes.prefix(100))
            case 2: bytes = Array(bytes.prefix(bytes.count / 2))
            default:
                for _ in 0..<20 {
                    bytes[Int.random(in: 4096..<bytes.count, using: &generator)] = UInt8.random(
                        in: 0...255, using: &generator)
                }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: account + "/postbox/db/db_sqlite"))
            let broken: Postbox
            do {
                broken = try Postbox.open(accountPath: account, encryption: testKey)
            } catch {
                switch error {
                case .wrongKeyOrNotADatabase, .corrupt, .storage: continue
                default:
                    Issue.record("unexpected error \(error)")
                    continue
                }
            }
            // Opening may succeed when page 1 is intact; reading damaged pages must still only throw.
            _ = try? broken.integrityCheck()
            _ = try? broken.readTransactionSync { tx in try tx.scanMessages { _ in true } }
        }
    }

    @Test func upgradesRunInOrderWithProgress() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        try postbox.transactionSync { tx in
            try tx.addMessages((1...2500).map { message(peer(1), $0, text: "phở \($0)") })
        }
        try postbox.checkpoint(truncate: true)
        // Make it a version-1 database: no full-text rows, user version 1.
        let database = try Database(path: postbox.databasePath)
        try database.applyKey(Database.CipherKey(key: testKey.key, salt: testKey.salt)!)
        try database.execute("DELETE FROM ft41; UPDATE t0 SET value = x'0100000000000000' WHERE key = x'00000001'")
        let progress = Mutex<[Float]>([])
        let upgraded = try Postbox.open(accountPath: directory.path + "/account-1", encryption: testKey) { value in
            progress.withLock { $0.append(value) }
        }
        #expect(try upgraded.schemaVersion() == 6)
        #expect(try upgraded.readTransactionSync { try $0.searchMessages("pho", limit: 5000).count } == 2500)
        let steps = progress.withLock { $0 }
        #expect(steps.count >= 3)
        #expect(steps == steps.sorted())
        #expect(steps.last == 1)
    }
}
