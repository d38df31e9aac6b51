@testable import Postbox
import PostboxTesting
import Synchronization
import Testing

/// A write transaction renders its inserted and updated messages into the operations record only for the chats an
/// open view reads, or for every chat while a transaction observer is registered. These tests hold what views and
/// observers receive to what they received when every insert was rendered.
@Suite("Rendered message operations")
struct RenderedMessageOperationsTests {
    /// A message with an author, entities and shared media, so that every part of rendering shows.
    private static func richMessage(_ chat: PeerId, _ id: Int32, author: PeerId) -> StoreMessage {
        var stored = message(chat, id, text: "phở \(id)", media: [mediaItem(id)])
        stored.authorId = author
        stored.attributes = [TestTextEntitiesAttribute(entities: [.init(type: "bold", offset: 0, length: 3)])]
        return stored
    }

    private static func mediaItem(_ id: Int32) -> TestMedia {
        TestMedia(id: MediaId(namespace: 1, id: Int64(id)), kind: "photo", name: "p\(id).jpg", size: Int64(id) * 100)
    }

    private static func entities(_ message: Message) -> [TestTextEntitiesAttribute.Entity]? {
        (message.attributes.first as? TestTextEntitiesAttribute)?.entities
    }

    @Test("views opened after a bulk insert nobody watched show the messages as stored")
    func viewsOpenedAfterAnUnwatchedInsert() throws {
        let (postbox, directory) = try makePostbox()
        defer { _ = directory }
        let chat = peer(1)
        let author = peer(9)
        try postbox.transactionSync { tx in
            try tx.updatePeers([TestPeer(id: author, name: "Ana")])
            try tx.addMessages((1...300).map { Self.richMessage(chat, $0, author: author) })
        }
        #expect(postbox.renderedMessageCount() == 0, "a bulk insert nobody watched built Messages")
        let history = ViewRecorder(postbox.aroundMessageHistoryViewForLocation(peerId: chat, anchor: .upperBound, count: 5))
        let chats = ViewRecorder(postbox.tailChatListView(count: 5))
        let single = ViewRecorder(postbox.messageView(MessageId(peerId: chat, namespace: 0, id: 300)))
        try postbox.drainQueue()
        let view = try #require(history.last)
        #expect(view.entries.map(\.message.id.id) == Array(296...300))
        for entry in view.entries {
            let id = entry.message.id.id
            #expect(entry.message.text == "phở \(id)")
            #expect((entry.message.author as? TestPeer)?.name == "Ana")
            #expect(Self.entities(entry.message) == [.init(type: "bold", offset: 0, length: 3)])
            #expect((entry.message.media.first as? TestMedia) == Self.mediaItem(id))
        }
        #expect(chats.last?.entries.first?.topMessage?.text == "phở 300")
        #expect(single.last?.message?.text == "phở 300")
    }

    @Test("a chat's open views get its rendered inserts and edits while other chats' inserts are not rendered")
    func openViewsGetRenderedMessagesOfTheirChat() throws {
        let (postbox, directory) = try makePostbox()
        defer { _ = directory }
        let watched = peer(1)
        let unwatched = peer(2)
        let author = peer(9)
        try postbox.transactionSync { tx in
            try tx.updatePeers([TestPeer(id: author, name: "Ana")])
            try tx.addMessages([Self.richMessage(watched, 1, author: author), Self.richMessage(unwatched, 1, author: author)])
        }
        #expect(postbox.renderedMessageCount() == 0)
        let history = ViewRecorder(postbox.aroundMessageHistoryViewForLocation(peerId: watched, anchor: .upperBound, count: 10))
        let single = ViewRecorder(postbox.combinedView(keys: [.message(MessageId(peerId: watched, namespace: 0, id: 2))]))
        let chats = ViewRecorder(postbox.tailChatListView(count: 10))
        try postbox.drainQueue()

        // One transaction writes both chats; the unwatched chat comes later, so it moves to the top of the list.
        try postbox.transactionSync { tx in
            try tx.addMessages([Self.richMessage(watched, 2, author: author)])
            try tx.addMessages([message(unwatched, 5, text: "elsewhere")])
        }
        #expect(postbox.renderedMessageCount() == 1, "only the watched chat's insert is rendered")
        let view = try #require(history.last)
        #expect(history.count == 2)
        let inserted = try #require(view.entries.last?.message)
        #expect(inserted.id.id == 2 && inserted.text == "phở 2")
        #expect((inserted.author as? TestPeer)?.name == "Ana")
        #expect(Self.entities(inserted) == [.init(type: "bold", offset: 0, length: 3)])
        #expect((inserted.media.first as? TestMedia) == Self.mediaItem(2))
        let combined = try #require(single.last?.views[.message(MessageId(peerId: watched, namespace: 0, id: 2))] as? MessageView)
        #expect(combined.message?.text == "phở 2")
        let list = try #require(chats.last)
        #expect(list.entries.map(\.peerId) == [unwatched, watched])
        #expect(list.entries.map { $0.topMessage?.text } == ["elsewhere", "phở 2"])

        // Edits: the watched chat's view shows the new text; the other chat's edit still reaches the chat list.
        try postbox.transactionSync { tx in
            try tx.updateMessage(MessageId(peerId: watched, namespace: 0, id: 2)) { old in
                var edited = old.toStoreMessage()
                edited.text = "edited"
                return edited
            }
            try tx.updateMessage(MessageId(peerId: unwatched, namespace: 0, id: 5)) { old in
                var edited = old.toStoreMessage()
                edited.text = "edited elsewhere"
                return edited
            }
        }
        #expect(postbox.renderedMessageCount() == 2, "only the watched chat's edit is rendered")
        #expect(history.last?.entries.last?.message.text == "edited")
        #expect(history.last?.entries.last.map { Self.entities($0.message) } == [.init(type: "bold", offset: 0, length: 3)])
        #expect(chats.last?.entries.map { $0.topMessage?.text } == ["edited elsewhere", "edited"])
        let shown = try #require(history.last?.entries.last?.message)
        let stored = try #require(
            try postbox.readTransactionSync { tx in try tx.getMessage(MessageId(peerId: watched, namespace: 0, id: 2)) })
        #expect(shown.isContentEqual(to: stored))
    }

    @Test("a transaction observer sees every inserted and edited message rendered, with no view open")
    func observersSeeRenderedMessages() throws {
        let (postbox, directory) = try makePostbox()
        defer { _ = directory }
        let chat = peer(1)
        let author = peer(9)
        let received = Mutex<[PostboxTransaction]>([])
        let token = postbox.addTransactionObserver { operations in received.withLock { $0.append(operations) } }
        defer { postbox.removeObserver(token) }
        try postbox.transactionSync { tx in
            try tx.updatePeers([TestPeer(id: author, name: "Ana")])
            try tx.addMessages((1...3).map { Self.richMessage(chat, $0, author: author) })
        }
        try postbox.transactionSync { tx in
            try tx.updateMessage(MessageId(peerId: chat, namespace: 0, id: 3)) { old in
                var edited = old.toStoreMessage()
                edited.text = "edited"
                return edited
            }
        }
        let all = received.withLock { $0 }
        try #require(all.count == 2)
        let inserted = (all[0].currentOperationsByPeerId[chat] ?? []).compactMap { operation -> Message? in
            if case .insertMessage(let message) = operation { return message }
            return nil
        }
        #expect(inserted.map(\.id.id) == [1, 2, 3])
        for message in inserted {
            #expect(message.text == "phở \(message.id.id)")
            #expect((message.author as? TestPeer)?.name == "Ana")
            #expect(Self.entities(message) == [.init(type: "bold", offset: 0, length: 3)])
            #expect((message.media.first as? TestMedia) == Self.mediaItem(message.id.id))
        }
        let edits = (all[1].currentOperationsByPeerId[chat] ?? []).compactMap { operation -> Message? in
            if case .updateMessage(let message) = operation { return message }
            return nil
        }
        #expect(edits.map(\.text) == ["edited"])
        #expect(edits.first.map(Self.entities) == [.init(type: "bold", offset: 0, length: 3)])
    }

    @Test("an observer added during a transaction starts with the next one, which carries rendered messages")
    func observerAddedDuringATransaction() throws {
        let (postbox, directory) = try makePostbox()
        defer { _ = directory }
        let chat = peer(1)
        let received = Mutex<[PostboxTransaction]>([])
        let token = Mutex<Int?>(nil)
        defer { if let id = token.withLock({ $0 }) { postbox.removeObserver(id) } }
        try postbox.transactionSync { tx in
            try tx.addMessages([message(chat, 1)])
            token.withLock { $0 = postbox.addTransactionObserver { ops in received.withLock { $0.append(ops) } } }
            try tx.addMessages([message(chat, 2)])
        }
        #expect(received.withLock { $0.isEmpty })
        try postbox.transactionSync { tx in try tx.addMessages([message(chat, 3, text: "third")]) }
        let all = received.withLock { $0 }
        try #require(all.count == 1)
        let texts = (all[0].currentOperationsByPeerId[chat] ?? []).compactMap { operation -> String? in
            if case .insertMessage(let message) = operation { return message.text }
            return nil
        }
        #expect(texts == ["third"])
    }
}
