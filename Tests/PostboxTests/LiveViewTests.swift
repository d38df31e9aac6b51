import Buffers
import Postbox
import PostboxTesting
import SignalTesting
import Testing
import ValueBox

@Suite("Live views")
struct LiveViewTests {
    @Test("a tail history view follows inserts and deletes, emitting only for its own chat")
    func tailHistoryView() throws {
        let (postbox, directory) = try makePostbox()
        defer { _ = directory }
        let chat = peer(1)
        let other = peer(2)
        try postbox.transactionSync { tx in try tx.addMessages((1...50).map { message(chat, $0) }) }
        let recorder = ViewRecorder(postbox.aroundMessageHistoryViewForLocation(peerId: chat, anchor: .upperBound, count: 10))
        try postbox.drainQueue()
        #expect(recorder.count == 1)
        #expect(recorder.last?.entries.map(\.message.id.id) == Array(41...50))
        #expect(recorder.last?.earlierId?.id.id == 40)
        #expect(recorder.last?.laterId == nil)

        try postbox.transactionSync { tx in try tx.addMessages([message(chat, 51)]) }
        #expect(recorder.count == 2)
        #expect(recorder.last?.entries.map(\.message.id.id) == Array(42...51))

        try postbox.transactionSync { tx in try tx.addMessages([message(other, 1)]) }
        #expect(recorder.count == 2)

        try postbox.transactionSync { tx in
            try tx.deleteMessages((45...51).map { MessageId(peerId: chat, namespace: 0, id: $0) })
        }
        #expect(recorder.count == 3)
        #expect(recorder.last?.entries.map(\.message.id.id) == Array(35...44))
        #expect(postbox.viewStatistics().openViews == 1)
        recorder.dispose()
        try postbox.drainQueue()
        #expect(postbox.viewStatistics().openViews == 0)
    }
}

@Suite("Live view contents")
struct LiveViewContentTests {
    @Test("history views carry read state, albums, holes at the edges and a tag filter")
    func historyDetails() throws {
        let (postbox, directory) = try makePostbox()
        defer { _ = directory }
        let chat = peer(1)
        try postbox.transactionSync { tx in
            var messages = (1...10).map { message(chat, $0, flags: [.incoming]) }
            for id in Int32(11)...13 {
                var album = message(chat, id, tags: [.photo])
                album.groupingKey = 77
                messages.append(album)
            }
            try tx.addMessages(messages)
            try tx.addHole(peerId: chat, namespace: 0, range: 20...30)
        }
        let history = ViewRecorder(postbox.aroundMessageHistoryViewForLocation(peerId: chat, anchor: .upperBound, count: 6))
        let photos = ViewRecorder(
            postbox.aroundMessageHistoryViewForLocation(peerId: chat, anchor: .upperBound, count: 6, tag: .photo))
        try postbox.drainQueue()
        var view = try #require(history.last)
        #expect(view.entries.map(\.message.id.id) == Array(8...13))
        #expect(view.entries.map(\.isRead) == Array(repeating: false, count: 6))
        let album = view.entries.suffix(3).map(\.groupInfo)
        #expect(album.allSatisfy { $0 != nil && $0 == album.first! })
        #expect(view.entries.first?.groupInfo == nil)
        #expect(view.holeLater && !view.holeEarlier)
        #expect(photos.last?.entries.map(\.message.id.id) == [11, 12, 13])

        // Reading up to 9: entries up to 9 are read; the photo view's entries (outgoing) do not change.
        try postbox.transactionSync { tx in try tx.applyIncomingReadMaxId(MessageId(peerId: chat, namespace: 0, id: 9)) }
        view = try #require(history.last)
        #expect(history.count == 2)
        #expect(view.entries.prefix(2).map(\.isRead) == [true, true])
        #expect(view.entries[2].isRead == false)

        // Filling the hole removes it; a hole below the oldest shown message appears only when adjacent.
        try postbox.transactionSync { tx in try tx.removeHole(peerId: chat, namespace: 0, range: 20...30) }
        #expect(history.last?.holeLater == false)
        try postbox.transactionSync { tx in try tx.addHole(peerId: chat, namespace: 0, range: 1...3) }
        #expect(history.count == 3)  // the hole at 1...3 is not next to the window (4...7 are stored)
        try postbox.transactionSync { tx in
            try tx.deleteMessages((1...9).map { MessageId(peerId: chat, namespace: 0, id: $0) })
        }
        #expect(history.last?.entries.map(\.message.id.id) == [10, 11, 12, 13])
        #expect(history.last?.holeEarlier == true)

        // Untagging an album photo takes it out of the photo view only.
        let photoCount = photos.count
        try postbox.transactionSync { tx in
            try tx.updateMessage(MessageId(peerId: chat, namespace: 0, id: 12)) { old in
                var store = old.toStoreMessage()
                store.tags = []
                return store
            }
        }
        #expect(photos.count == photoCount + 1)
        #expect(photos.last?.entries.map(\.message.id.id) == [11, 13])
        history.dispose()
        photos.dispose()
    }

    @Test("the chat list puts pinned chats first, carries unread counts and follows new messages")
    func chatList() throws {
        let (postbox, directory) = try makePostbox()
        defer { _ = directory }
        try postbox.transactionSync { tx in
            try tx.addMessages((1...5).map { message(peer(Int64($0)), Int32($0), flags: [.incoming]) })
        }
        let list = ViewRecorder(postbox.tailChatListView(count: 3))
        let unread = ViewRecorder(postbox.unreadMessageCountsView(items: [.total, .peer(peer(2))]))
        try postbox.drainQueue()
        #expect(list.last?.entries.map(\.peerId) == [peer(5), peer(4), peer(3)])
        #expect(list.last?.earlierIndex?.messageIndex.id.peerId == peer(2))
        #expect(unread.last?.count(for: .total) == 5)

        try postbox.transactionSync { tx in try tx.setPinnedItemIds([peer(1)]) }
        #expect(list.last?.entries.map(\.peerId) == [peer(1), peer(5), peer(4)])
        #expect(list.last?.entries.first?.isPinned == true)
        #expect(unread.count == 1)

        try postbox.transactionSync { tx in try tx.addMessages([message(peer(2), 50, flags: [.incoming])]) }
        #expect(list.last?.entries.map(\.peerId) == [peer(1), peer(2), peer(5)])
        #expect(list.last?.entries[1].unreadCount == 2)
        #expect(unread.last?.count(for: .total) == 6)
        #expect(unread.last?.count(for: .peer(peer(2))) == 2)

        try postbox.transactionSync { tx in try tx.applyIncomingReadMaxId(MessageId(peerId: peer(2), namespace: 0, id: 50)) }
        #expect(list.last?.entries[1].unreadCount == 0)
        #expect(unread.last?.count(for: .total) == 4)
        list.dispose()
        unread.dispose()
    }

    @Test("peer, message, unsent, preferences, ordered-list and combined views emit once per change")
    func smallViews() throws {
        let (postbox, directory) = try makePostbox()
        defer { _ = directory }
        let chat = peer(1)
        let key = ValueBoxKey("settings")
        let messageId = MessageId(peerId: chat, namespace: 0, id: 1)
        let peerView = ViewRecorder(postbox.peerView(id: chat))
        let messageView = ViewRecorder(postbox.messageView(messageId))
        let unsent = ViewRecorder(postbox.unsentMessageIdsView())
        let preferences = ViewRecorder(postbox.preferencesView(keys: [key]))
        let list = ViewRecorder(postbox.orderedItemListView(collectionId: 3))
        let combined = ViewRecorder(postbox.combinedView(keys: [.peer(chat), .message(messageId)]))
        try postbox.drainQueue()

        try postbox.transactionSync { tx in
            try tx.updatePeers([TestPeer(id: chat, name: "Ann")])
            try tx.addMessages([message(chat, 1, flags: [.unsent])])
        }
        #expect((peerView.last?.peer as? TestPeer)?.name == "Ann")
        #expect(messageView.last?.message?.text == "message 1")
        #expect(unsent.last?.ids == [messageId])
        #expect(combined.count == 2)  // one snapshot for a transaction that changed both of its views
        #expect(preferences.count == 1 && list.count == 1)

        try postbox.transactionSync { tx in
            try tx.setPreferencesEntry(key: key, value: TestPreferencesEntry(value: "dark"))
            try tx.replaceOrderedItemListItems(
                collectionId: 3, items: [OrderedItemListEntry(id: MemoryBuffer([1]), contents: TestPreferencesEntry(value: "a"))])
        }
        #expect((preferences.last?.values[key] as? TestPreferencesEntry)?.value == "dark")
        #expect(list.last?.items.count == 1)
        #expect(peerView.count == 2 && combined.count == 2)

        // Writing the same values again changes nothing, so nothing is emitted.
        try postbox.transactionSync { tx in
            try tx.updatePeers([TestPeer(id: chat, name: "Ann")])
            try tx.replaceOrderedItemListItems(
                collectionId: 3, items: [OrderedItemListEntry(id: MemoryBuffer([1]), contents: TestPreferencesEntry(value: "a"))])
        }
        #expect(peerView.count == 2 && list.count == 2 && combined.count == 2)

        try postbox.transactionSync { tx in
            try tx.updateMessage(messageId) { old in
                var store = old.toStoreMessage()
                store.flags = []
                return store
            }
        }
        #expect(unsent.last?.ids.isEmpty == true)
        #expect(combined.count == 3)
        try postbox.transactionSync { tx in try tx.deleteMessages([messageId]) }
        #expect(messageView.last?.message == nil)
        for recorder in [peerView.dispose, messageView.dispose, unsent.dispose, preferences.dispose, list.dispose] {
            recorder()
        }
        combined.dispose()
    }
}
