import Postbox
import PostboxTesting
import Testing

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
