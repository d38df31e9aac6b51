import Buffers
import Postbox
import PostboxTesting
import TestVectors
import Testing
import ValueBox

@Suite struct ChatStateTests {
    @Test func readStatesCountUnreadIncomingMessages() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let p = peer(1)
        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.addMessages((1...10).map { message(p, $0, flags: $0 % 2 == 0 ? [.incoming] : []) })
        }
        #expect(try postbox.transactionSync { try $0.getCombinedPeerReadState(p)?.count } == 5)
        try postbox.transactionSync { try $0.applyIncomingReadMaxId(MessageId(peerId: p, namespace: 0, id: 6)) }
        #expect(try postbox.transactionSync { try $0.getCombinedPeerReadState(p)?.count } == 2)
        try postbox.transactionSync { try $0.deleteMessages([MessageId(peerId: p, namespace: 0, id: 8)]) }
        try postbox.transactionSync { try $0.addMessages([message(p, 11, flags: [.incoming])]) }
        let state = try #require(try postbox.transactionSync { try $0.getCombinedPeerReadState(p)?.states[0] })
        #expect(state.count == 2)
        #expect(state.maxIncomingReadId == 6)
        #expect(state.maxKnownId == 11)
    }

    @Test func chatListPutsPinnedFirstThenNewest() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.addMessages([
                message(peer(1), 1, timestamp: 100), message(peer(2), 1, timestamp: 300),
                message(peer(3), 1, timestamp: 200),
            ])
        }
        func order() throws -> [Int64] {
            try postbox.transactionSync { try $0.chatListEntries(before: nil, count: 10) }.map {
                $0.messageIndex.id.peerId.id.rawValue
            }
        }
        #expect(try order() == [2, 3, 1])
        try postbox.transactionSync { try $0.setPinnedItemIds([peer(1), peer(4)]) }
        #expect(try order() == [1, 4, 2, 3])
        try postbox.transactionSync { try $0.addMessages([message(peer(3), 2, timestamp: 400)]) }
        #expect(try order() == [1, 4, 3, 2])
        try postbox.transactionSync { try $0.setPinnedItemIds([]) }
        #expect(try order() == [3, 2, 1])
        try postbox.transactionSync { try $0.deleteMessages([MessageId(peerId: peer(3), namespace: 0, id: 2)]) }
        #expect(try order() == [2, 3, 1])
        let page = try postbox.transactionSync { tx -> [ChatListIndex] in
            let first = try tx.chatListEntries(before: nil, count: 1)
            return try tx.chatListEntries(before: first[0], count: 5)
        }
        #expect(page.map(\.messageIndex.id.peerId.id.rawValue) == [3, 1])
    }

    /// Random hole inserts and removals against a model set of ids.
    @Test func holesMergeAndSplitLikeASetOfIds() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        var generator = SeededGenerator(seed: 5)
        var model = Set<Int32>()
        let p = peer(9)
        for _ in 0..<200 {
            let lower = Int32.random(in: 1...100, using: &generator)
            let range = lower...min(100, lower + Int32.random(in: 0...15, using: &generator))
            let insert = Bool.random(using: &generator)
            try postbox.transactionSync { (tx: Transaction) throws in
                if insert {
                    try tx.addHole(peerId: p, namespace: 0, range: range)
                    model.formUnion(range)
                } else {
                    try tx.removeHole(peerId: p, namespace: 0, range: range)
                    model.subtract(range)
                }
            }
            let holes = try postbox.transactionSync { try $0.getHoles(peerId: p, namespace: 0) }
            #expect(Set(holes.flatMap { Array($0) }) == model)
            for (a, b) in zip(holes, holes.dropFirst()) { #expect(a.upperBound + 1 < b.lowerBound) }
        }
        #expect(try postbox.transactionSync { try $0.getHoles(peerId: p, namespace: 0, space: .tag(.photo)) }.isEmpty)
    }

    @Test func preferencesOrderedListsKeychainStateAndPresence() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let key = ValueBoxKey("theme")
        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.setPreferencesEntry(key: key, value: TestPreferencesEntry(value: "dark"))
            for i in 1...5 {
                try tx.addOrMoveToFirstPositionOrderedItemListItem(
                    collectionId: 1,
                    item: OrderedItemListEntry(
                        id: MemoryBuffer([UInt8(i)]), contents: TestPreferencesEntry(value: "s\(i)")),
                    removeTailIfCountExceeds: 3)
            }
            try tx.addOrMoveToFirstPositionOrderedItemListItem(
                collectionId: 1,
                item: OrderedItemListEntry(id: MemoryBuffer([4]), contents: TestPreferencesEntry(value: "s4")),
                removeTailIfCountExceeds: 3)
            try tx.setKeychainEntry([1, 2, 3], forKey: "auth")
            try tx.setState(TestPreferencesEntry(value: "state"))
            try tx.updatePeerPresences([peer(1): TestPreferencesEntry(value: "online")])
        }
        try postbox.readTransactionSync { (tx: Transaction) throws in
            #expect(
                try tx.getPreferencesEntry(key: key) as? TestPreferencesEntry == TestPreferencesEntry(value: "dark"))
            #expect(try tx.getOrderedListItems(collectionId: 1).map(\.id.bytes) == [[4], [5], [3]])
            #expect(try tx.keychainEntryForKey("auth") == [1, 2, 3])
            #expect(try tx.getState() as? TestPreferencesEntry == TestPreferencesEntry(value: "state"))
            #expect(try tx.getPeerPresence(peer(1)) as? TestPreferencesEntry == TestPreferencesEntry(value: "online"))
        }
        try postbox.transactionSync { (tx: Transaction) throws in
            try tx.removeOrderedItemListItem(collectionId: 1, itemId: MemoryBuffer([5]))
            try tx.removeKeychainEntry(forKey: "auth")
        }
        try postbox.readTransactionSync { (tx: Transaction) throws in
            #expect(try tx.getOrderedListItems(collectionId: 1).map(\.id.bytes) == [[4], [3]])
            #expect(try tx.keychainEntryForKey("auth") == nil)
        }
    }
}
