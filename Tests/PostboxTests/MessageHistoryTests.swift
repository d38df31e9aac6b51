import Foundation
import Postbox
import PostboxTesting
import SQLite
import TestVectors
import Testing

@Suite struct MessageHistoryTests {
    @Test func addGetUpdateDelete() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let p = peer(1)
        let photo = TestMedia(id: MediaId(namespace: 0, id: 77), kind: "photo", name: "a.jpg", size: 10)
        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.updatePeers([TestPeer(id: p, name: "Alice")])
            let ids = try tx.addMessages([
                message(p, 1, text: "phở bò", tags: [.photo], media: [photo]),
                StoreMessage(id: .partial(p, 1), timestamp: 50, authorId: p, text: "local"),
                StoreMessage(id: .partial(p, 1), timestamp: 51, authorId: p, text: "local 2"),
            ])
            #expect(ids.map(\.id) == [1, 1, 2])
        }
        let stored = try #require(
            try postbox.transactionSync { try $0.getMessage(MessageId(peerId: p, namespace: 0, id: 1)) })
        #expect(stored.text == "phở bò")
        #expect((stored.author as? TestPeer)?.name == "Alice")
        #expect(stored.media.first as? TestMedia == photo)
        #expect(stored.tags == [.photo])

        // Shared media updates are seen through every message that references it.
        let bigger = TestMedia(id: MediaId(namespace: 0, id: 77), kind: "photo", name: "a.jpg", size: 99)
        try postbox.transactionSync { try $0.updateMedia(MediaId(namespace: 0, id: 77), update: bigger) }
        #expect(try postbox.transactionSync { try $0.getMessage(stored.id)?.media.first as? TestMedia } == bigger)

        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.updateMessage(stored.id) { old in
                var updated = old.toStoreMessage()
                updated.text = "bánh mì"
                return updated
            }
        }
        let search = try postbox.transactionSync { (tx: Transaction) throws in
            (try tx.searchMessages("pho", limit: 10).count, try tx.searchMessages("banh", limit: 10).map(\.id))
        }
        #expect(search.0 == 0)
        #expect(search.1 == [stored.id])

        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.updateMessage(stored.id) { old in
                var moved = old.toStoreMessage()
                moved.timestamp = 5
                return moved
            }
        }
        #expect(try postbox.transactionSync { try $0.messageIndex(stored.id)?.timestamp } == 5)
        try postbox.transactionSync { try $0.deleteMessages([stored.id]) }
        #expect(try postbox.transactionSync { try $0.getMessage(stored.id) } == nil)
        #expect(try postbox.transactionSync { try $0.searchMessages("banh", limit: 10) }.isEmpty)
        #expect(try postbox.transactionSync { try $0.getMedia(MediaId(namespace: 0, id: 77)) } == nil)
        #expect(try postbox.transactionSync { try $0.messageCount(peerId: p, tag: .photo) } == 0)
    }

    /// A message stored again under its id (the difference bringing a message the client already has) is a new
    /// version of the same message: its stable id stays, so views show it in place, and the new content wins.
    @Test func aMessageAddedAgainKeepsItsStableId() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let p = peer(1)
        let id = MessageId(peerId: p, namespace: 0, id: 7)
        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.addMessages([message(p, 6, text: "before"), message(p, 7, text: "first copy")])
        }
        let first = try #require(try postbox.transactionSync { try $0.getMessage(id) })
        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.addMessages([message(p, 7, text: "second copy"), message(p, 8, text: "after")])
        }
        let again = try #require(try postbox.transactionSync { try $0.getMessage(id) })
        #expect(again.stableId == first.stableId)
        #expect(again.stableVersion == first.stableVersion + 1)
        #expect(again.text == "second copy")
        let neighbours = try postbox.transactionSync { (tx: Transaction) throws in
            try [6, 8].map { try #require(try tx.getMessage(MessageId(peerId: p, namespace: 0, id: $0))).stableId }
        }
        #expect(Set(neighbours + [again.stableId]).count == 3, "the other messages keep stable ids of their own")
        #expect(try postbox.transactionSync { try $0.searchMessages("first", limit: 10) }.isEmpty)
        #expect(try postbox.transactionSync { try $0.searchMessages("second", limit: 10) }.map(\.id) == [id])
    }

    /// `addMessagesKeepingStored` adds only what is not stored yet: a stored message keeps its version and text, and
    /// its position in the input is reported.
    @Test func addingKeepingStoredLeavesStoredMessagesAlone() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let p = peer(1)
        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.addMessages([message(p, 7, text: "first copy")])
        }
        let first = try #require(
            try postbox.transactionSync { try $0.getMessage(MessageId(peerId: p, namespace: 0, id: 7)) })
        let (added, stored) = try postbox.transactionSync { (tx: Transaction) throws in
            try tx.addMessagesKeepingStored([
                message(p, 6, text: "new six"), message(p, 7, text: "second copy"), message(p, 8, text: "new eight"),
            ])
        }
        #expect(added.map(\.id) == [6, 8])
        #expect(stored == [1])
        let seven = try #require(
            try postbox.transactionSync { try $0.getMessage(MessageId(peerId: p, namespace: 0, id: 7)) })
        #expect(seven.text == "first copy")
        #expect(seven.stableId == first.stableId && seven.stableVersion == first.stableVersion)
        #expect(try postbox.transactionSync { try $0.searchMessages("second", limit: 10) }.isEmpty)
        #expect(try postbox.transactionSync { try $0.searchMessages("new", limit: 10) }.map(\.id.id) == [8, 6])
    }

    /// `hasMessages` answers for one namespace of one chat exactly as a model of what was added and deleted does:
    /// neighbouring peer ids (255 and 256 differ in the last byte of the key's peer part), several namespaces in one
    /// chat, and after the chat's last message is deleted.
    @Test func hasMessagesFollowsAModelOfEachChatsNamespaces() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let chats = [peer(1), peer(2), peer(3), peer(4), peer(255), peer(256), peer(257), peer(7, namespace: 2)]
        var model: Set<[Int64]> = []
        func check(_ tx: Transaction) throws {
            for chat in chats {
                for namespace: Int32 in [0, 1, 3, 4] {
                    let expected = model.contains([chat.toInt64(), Int64(namespace)])
                    #expect(try tx.hasMessages(peerId: chat, namespace: namespace) == expected, "\(chat) \(namespace)")
                }
            }
        }
        let added = [
            message(peer(2), 5), message(peer(255), 1, namespace: 1), message(peer(256), 9),
            message(peer(7, namespace: 2), 3), message(peer(3), 1), message(peer(3), 2, namespace: 4),
        ]
        try postbox.transactionSync { tx in
            try check(tx)
            try tx.addMessages(added)
            for case .id(let id) in added.map(\.id) { model.insert([id.peerId.toInt64(), Int64(id.namespace)]) }
            try check(tx)
        }
        try postbox.transactionSync { tx in
            try tx.deleteMessages([MessageId(peerId: peer(2), namespace: 0, id: 5)])
            model.remove([peer(2).toInt64(), 0])
            try check(tx)
        }
    }

    /// The same id twice in one call: the first copy is stored, the second reported as stored.
    @Test func addingKeepingStoredStoresTheFirstOfTwoCopies() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let p = peer(1)
        let (added, stored) = try postbox.transactionSync { (tx: Transaction) throws in
            try tx.addMessagesKeepingStored([message(p, 5, text: "one"), message(p, 5, text: "two")])
        }
        #expect(added.map(\.id) == [5] && stored == [1])
        #expect(
            try postbox.transactionSync { try $0.getMessage(MessageId(peerId: p, namespace: 0, id: 5))?.text } == "one")
    }

    /// Text rows go by the history rowid, and an inconsistent file leaves no stale hit: a history row left without
    /// its id index entry is rewritten in place when the message comes again (its old text row goes, even when the
    /// new copy has no text), and deleting a message whose history row is missing removes its chat's text rows that
    /// have no record.
    @Test func textRowsOfAnInconsistentFileDoNotOutliveTheirMessages() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let p = peer(1)
        try postbox.transactionSync { tx in
            try tx.addMessages([message(p, 1, text: "orphan alpha"), message(p, 2, text: "orphan beta")])
        }
        try postbox.checkpoint(truncate: true)
        let database = try Database(path: postbox.databasePath)
        try database.applyKey(Database.CipherKey(key: testKey.key, salt: testKey.salt)!)
        // Message 1 loses its id index entry (its history and text rows stay); message 2 loses its history row.
        let one = try database.textColumn("SELECT hex(key) FROM t4").sorted()
        #expect(one.count == 2)
        try database.execute("DELETE FROM t4 WHERE hex(key) = '\(one[0])'")
        let two = try database.textColumn("SELECT hex(key) FROM t7").sorted()
        try database.execute("DELETE FROM t7 WHERE hex(key) = '\(two[1])'")
        let reopened = try Postbox.open(accountPath: directory.path + "/account-1", encryption: testKey)
        try reopened.transactionSync { tx in
            var copy = message(p, 1)
            copy.text = ""
            try tx.addMessages([copy])
            try tx.deleteMessages([MessageId(peerId: p, namespace: 0, id: 2)])
        }
        #expect(try reopened.readTransactionSync { try $0.searchMessages("orphan", limit: 10) }.isEmpty)
        #expect(try database.textColumn("SELECT count(*) FROM ft41") == ["0"])
    }

    /// A damaged file's text row left under a rowid SQLite hands out again is no hit for the message stored there
    /// without text: the text-less record clears its rowid.
    @Test func aReusedRowIdLeavesNoStaleHit() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        try postbox.transactionSync { tx in
            try tx.addMessages([message(peer(1), 1, text: "first"), message(peer(1), 2, text: "orphan words")])
        }
        try postbox.checkpoint(truncate: true)
        let database = try Database(path: postbox.databasePath)
        try database.applyKey(Database.CipherKey(key: testKey.key, salt: testKey.salt)!)
        // The newest history row goes, its text row stays: the next record gets its rowid.
        try database.execute("DELETE FROM t7 WHERE rowid = (SELECT max(rowid) FROM t7)")
        let reopened = try Postbox.open(accountPath: directory.path + "/account-1", encryption: testKey)
        try reopened.transactionSync { tx in
            var photo = message(peer(2), 7)
            photo.text = ""
            try tx.addMessages([photo])
        }
        #expect(try reopened.readTransactionSync { try $0.searchMessages("orphan", limit: 10) }.isEmpty)
        #expect(try reopened.readTransactionSync { try $0.searchMessages("first", limit: 10) }.map(\.id.id) == [1])
    }

    /// Random histories over two namespaces: earlier, later and around queries equal a sort of the model.
    @Test func rangeQueriesMatchAModel() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        var generator = SeededGenerator(seed: 11)
        let p = peer(5)
        var model: [MessageId: MessageIndex] = [:]
        var photos = Set<MessageId>()
        for _ in 0..<20 {
            try postbox.transactionSync { (tx: Transaction) throws in
                for _ in 0..<Int.random(in: 1...15, using: &generator) {
                    let namespace = Int32.random(in: 0...1, using: &generator)
                    let id = Int32.random(in: 1...200, using: &generator)
                    let timestamp = Int32.random(in: 1...60, using: &generator)
                    let messageId = MessageId(peerId: p, namespace: namespace, id: id)
                    if Int.random(in: 0..<5, using: &generator) == 0 {
                        try tx.deleteMessages([messageId])
                        model[messageId] = nil
                        photos.remove(messageId)
                    } else {
                        let isPhoto = Bool.random(using: &generator)
                        try tx.addMessages([
                            message(p, id, namespace: namespace, timestamp: timestamp, tags: isPhoto ? [.photo] : [])
                        ])
                        model[messageId] = MessageIndex(id: messageId, timestamp: timestamp)
                        if isPhoto { photos.insert(messageId) } else { photos.remove(messageId) }
                    }
                }
            }
            let sorted = model.values.sorted()
            try postbox.transactionSync { (tx: Transaction) throws in
                #expect(try tx.topMessageIndex(peerId: p) == sorted.last)
                for _ in 0..<10 {
                    let anchor =
                        sorted.randomElement(using: &generator)
                        ?? MessageIndex(id: MessageId(peerId: p, namespace: 0, id: 1), timestamp: 1)
                    let count = Int.random(in: 1...12, using: &generator)
                    let earlier = try tx.earlierMessages(peerId: p, before: anchor, count: count).map(\.index)
                    #expect(earlier == Array(sorted.filter { $0 < anchor }.reversed().prefix(count)))
                    let later = try tx.laterMessages(peerId: p, after: anchor, count: count).map(\.index)
                    #expect(later == Array(sorted.filter { $0 > anchor }.prefix(count)))
                    let tagged = sorted.filter { photos.contains($0.id) }
                    let earlierPhotos = try tx.earlierMessages(peerId: p, before: anchor, count: count, tag: .photo)
                    #expect(earlierPhotos.map(\.index) == Array(tagged.filter { $0 < anchor }.reversed().prefix(count)))
                    let laterPhotos = try tx.laterMessages(peerId: p, after: anchor, count: count, tag: .photo)
                    #expect(laterPhotos.map(\.index) == Array(tagged.filter { $0 > anchor }.prefix(count)))
                    let around = try tx.messagesAround(peerId: p, anchor: anchor, count: count).map(\.index)
                    #expect(around == around.sorted())
                    #expect(around.count == min(count, sorted.count))
                    if model[anchor.id] == anchor { #expect(around.contains(anchor)) }
                }
                #expect(try tx.earlierMessages(peerId: p, before: nil, count: 1000).map(\.index) == sorted.reversed())
            }
        }
    }

    @Test func searchIsDiacriticInsensitiveAndFiltersByPeerAndTag() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.addMessages([
                message(peer(1), 1, text: "Tôi thích phở"),
                message(peer(1), 2, text: "ánh sáng", tags: [.photo]),
                message(peer(2), 1, text: "pho again", tags: [.photo]),
                message(peer(2), 2, text: "Nguyễn Văn A"),
            ])
        }
        try postbox.readTransactionSync { (tx: Transaction) throws in
            #expect(try tx.searchMessages("pho", limit: 10).map(\.id.peerId) == [peer(2), peer(1)])
            #expect(try tx.searchMessages("pho", peerId: peer(1), limit: 10).map(\.text) == ["Tôi thích phở"])
            #expect(try tx.searchMessages("anh", limit: 10).map(\.text) == ["ánh sáng"])
            #expect(try tx.searchMessages("nguyen", limit: 10).map(\.text) == ["Nguyễn Văn A"])
            #expect(try tx.searchMessages("pho", tags: .photo, limit: 10).map(\.text) == ["pho again"])
        }
    }

    /// Search resolves each hit through the text row's rowid (its record's rowid in the history table): after random
    /// adds, re-adds, edits, moves and deletes, every search returns exactly what a scan of a model finds.
    @Test func searchMatchesAModelAfterRandomWrites() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let words = ["phở", "bánh", "mì", "trà", "cơm"]
        var model: [MessageId: (timestamp: Int32, text: String)] = [:]
        var generator = SeededGenerator(seed: 21)
        for _ in 0..<60 {
            try postbox.transactionSync { (tx: Transaction) throws in
                for _ in 0..<5 {
                    let id = MessageId(
                        peerId: peer(Int64(generator.next() % 3) + 1), namespace: 0,
                        id: Int32(generator.next() % 40) + 1)
                    let text = (0..<2).map { _ in words[Int(generator.next() % UInt64(words.count))] }
                        .joined(separator: " ")
                    let timestamp = Int32(generator.next() % 1000)
                    switch generator.next() % 4 {
                    case 0, 1:
                        try tx.addMessages([message(id.peerId, id.id, timestamp: timestamp, text: text)])
                        model[id] = (timestamp, text)
                    case 2:
                        guard model[id] != nil else { continue }
                        let moves = generator.next() % 2 == 0
                        try tx.updateMessage(id) { old in
                            var updated = old.toStoreMessage()
                            updated.text = text
                            if moves { updated.timestamp = timestamp }
                            return updated
                        }
                        model[id] = (moves ? timestamp : model[id]!.timestamp, text)
                    default:
                        try tx.deleteMessages([id])
                        model[id] = nil
                    }
                }
            }
        }
        try postbox.readTransactionSync { (tx: Transaction) throws in
            for word in ["pho", "banh", "mi", "tra", "com"] {
                let expected = model.filter { entry in
                    entry.value.text.folding(options: .diacriticInsensitive, locale: nil).split(separator: " ")
                        .contains { $0.hasPrefix(word) }
                }.map { MessageIndex(id: $0.key, timestamp: $0.value.timestamp) }.sorted(by: >)
                let found = try tx.searchMessages(word, limit: 1000)
                #expect(found.map(\.index) == expected, "search \(word)")
                for message in found { #expect(message.text == model[message.id]?.text) }
            }
        }
    }

    /// A Postbox with 300 messages ("phở 1"…) in four chats, checkpointed, and a raw keyed connection to its file
    /// (the Postbox itself released), for a test to make an older schema of it.
    static func threeHundredMessagesOpenedRaw() throws -> (Database, TemporaryDirectory) {
        let (postbox, directory) = try makePostbox()
        try postbox.transactionSync { tx in
            try tx.addMessages((1...300).map { message(peer(Int64($0 % 4)), Int32($0), text: "phở \($0)") })
        }
        try postbox.checkpoint(truncate: true)
        let database = try Database(path: postbox.databasePath)
        try database.applyKey(Database.CipherKey(key: testKey.key, salt: testKey.salt)!)
        return (database, directory)
    }

    /// Replaces the text table of `threeHundredMessagesOpenedRaw`'s file with an older version's: FTS5 with
    /// `itemIdColumn`, a copy of every text, rows numbered from `firstRowId` (the fixture's history rowids are 1…300,
    /// its messages inserted in order into an empty table), and marks the file `version`.
    static func makeOlderTextTable(
        _ database: Database, version: UInt8, itemIdColumn: String, firstRowId: Int = 1
    ) throws {
        #expect(try database.textColumn("SELECT count(*) FROM t7") == ["300"])
        #expect(try database.textColumn("SELECT max(rowid) FROM t7") == ["300"])
        try database.execute(
            """
            DROP TABLE ft41;
            CREATE VIRTUAL TABLE ft41 USING fts5(collectionId, \(itemIdColumn), contents, tags,
                tokenize = 'unicode61 remove_diacritics 2');
            WITH RECURSIVE n(r) AS (SELECT 1 UNION ALL SELECT r + 1 FROM n WHERE r < 300)
            INSERT INTO ft41 (rowid, collectionId, itemId, contents, tags)
                SELECT r + \(firstRowId - 1), 'p' || (r % 4), 'p' || (r % 4) || 'a0b' || r, 'phở ' || r, '' FROM n;
            UPDATE t0 SET value = x'0\(version)00000000000000' WHERE key = x'00000001'
            """)
    }

    /// Version 3 numbered text rows by insertion; opening one rebuilds the index under the history rowids.
    @Test func theUpgradeFromVersionThreeRebuildsTheTextIndex() throws {
        let (database, directory) = try Self.threeHundredMessagesOpenedRaw()
        defer { directory.remove() }
        // A version-3 database: its text rows carry other rowids than their records.
        try Self.makeOlderTextTable(database, version: 3, itemIdColumn: "itemId", firstRowId: 100_001)
        let upgraded = try Postbox.open(accountPath: directory.path + "/account-1", encryption: testKey)
        #expect(try upgraded.schemaVersion() == 6)
        let found = try upgraded.readTransactionSync { try $0.searchMessages("pho", limit: 1000) }
        #expect(found.count == 300)
        #expect(Set(found.map(\.text)) == Set((1...300).map { "phở \($0)" }))
    }

    /// Version 4 indexed each row's item id (a term per message) and version 5 kept a copy of every text and item id;
    /// opening either rebuilds the text index contentless, and rows are then removed by their rowid: deleting and
    /// editing messages still leave search right.
    @Test(arguments: [(UInt8(4), "itemId"), (5, "itemId UNINDEXED")])
    func theUpgradeFromVersionsFourAndFiveMakesTheTextIndexContentless(version: UInt8, itemIdColumn: String) throws {
        let (database, directory) = try Self.threeHundredMessagesOpenedRaw()
        defer { directory.remove() }
        try Self.makeOlderTextTable(database, version: version, itemIdColumn: itemIdColumn)
        #expect(try database.textColumn("SELECT count(*) FROM ft41_content") == ["300"])
        let upgraded = try Postbox.open(accountPath: directory.path + "/account-1", encryption: testKey)
        #expect(try upgraded.schemaVersion() == 6)
        let schema = try database.textColumn("SELECT sql FROM sqlite_master WHERE name = 'ft41'").first
        #expect(schema?.contains("content=''") == true && schema?.contains("itemId") == false)
        #expect(try database.textColumn("SELECT count(*) FROM sqlite_master WHERE name = 'ft41_content'") == ["0"])
        #expect(try upgraded.readTransactionSync { try $0.searchMessages("pho", limit: 1000) }.count == 300)
        // Rows go by rowid: a deleted message and an edited one leave no stale hit.
        try upgraded.transactionSync { tx in
            try tx.deleteMessages([MessageId(peerId: peer(1), namespace: 0, id: 1)])
            try tx.updateMessage(MessageId(peerId: peer(2), namespace: 0, id: 2)) { old in
                var new = old.toStoreMessage()
                new.text = "bánh mì"
                return new
            }
        }
        let after = try upgraded.readTransactionSync { tx in
            (try tx.searchMessages("pho", limit: 1000).count, try tx.searchMessages("banh", limit: 10).map(\.id.id))
        }
        #expect(after.0 == 298)
        #expect(after.1 == [2])
    }

    @Test func albumsAreConsecutiveMessagesWithOneGroupingKey() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let p = peer(1)
        try postbox.transactionSync { tx in
            var messages = (1...7).map { message(p, $0) }
            for index in 1...3 { messages[index].groupingKey = 42 }
            messages[5].groupingKey = 43
            try tx.addMessages(messages)
        }
        try postbox.readTransactionSync { tx in
            let album = try #require(try tx.getMessageGroup(MessageId(peerId: p, namespace: 0, id: 3)))
            #expect(album.map(\.id.id) == [2, 3, 4])
            #expect(try tx.getMessageGroup(MessageId(peerId: p, namespace: 0, id: 6))?.map(\.id.id) == [6])
            #expect(try tx.getMessageGroup(MessageId(peerId: p, namespace: 0, id: 1))?.map(\.id.id) == [1])
            #expect(try tx.getMessageGroup(MessageId(peerId: p, namespace: 0, id: 99)) == nil)
        }
    }

    @Test func unsentAndGloballyUniqueIds() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let p = peer(1)
        var pending = message(p, 1, flags: [.unsent])
        pending.globallyUniqueId = 987
        try postbox.transactionSync { try $0.addMessages([pending]) }
        try postbox.transactionSync { (tx: Transaction) throws in
            #expect(try tx.unsentMessageIds() == [MessageId(peerId: p, namespace: 0, id: 1)])
            #expect(try tx.messageId(peerId: p, globallyUniqueId: 987)?.id == 1)
            try tx.updateMessage(MessageId(peerId: p, namespace: 0, id: 1)) { old in
                var sent = old.toStoreMessage()
                sent.flags.remove(.unsent)
                return sent
            }
            #expect(try tx.unsentMessageIds().isEmpty)
        }
    }
}
