import ChatHistory
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import Testing

/// Paging over a real Postbox with 300 messages: a window of 44 moves older when the reader nears its top, newer when
/// they near its bottom, and follows the newest messages once they reach the end; a window in the middle stays.
@Suite struct ChatHistoryPagingTests {
    @Test func theWindowMovesNearItsEdgesAndFollowsTheBottom() throws {
        registerSyncCoreTypes()
        let directory = TemporaryDirectory(prefix: "chat-paging")
        defer { directory.remove() }
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        let chat = ChatHistoryEntriesTests.chat
        try postbox.transactionSync { tx in
            try tx.addMessages((1...300).map { ChatHistoryEntriesTests.message(Int32($0), at: 1_700_000_000 + Int32($0), text: "m\($0)") })
        }
        func window(_ anchor: HistoryViewInputAnchor) throws -> (MessageHistoryView, [ChatHistoryEntry]) {
            let recorder = EventRecorder(
                postbox.aroundMessageHistoryViewForLocation(peerId: chat, anchor: anchor, count: ChatHistoryPaging.windowSize))
            #expect(recorder.waitForEvents(1, seconds: 5))
            let view = try #require(recorder.values.last)
            return (view, ChatHistoryEntries.make(from: view))
        }
        let middle = MessageIndex(id: MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: 150), timestamp: 1_700_000_150)
        let (view, entries) = try window(.index(middle))
        #expect(view.entries.count >= ChatHistoryPaging.windowSize && view.earlierId != nil && view.laterId != nil)
        let rows = entries.count
        // In the middle of the window: it stays.
        #expect(ChatHistoryPaging.anchor(visible: 15...25, entries: entries, view: view) == nil)
        // Near the top: older messages, around the oldest shown.
        let older = try #require(ChatHistoryPaging.anchor(visible: 3...14, entries: entries, view: view))
        #expect(older == .index(try #require(entries.flatMap(\.messages).first).index))
        // Near the bottom: newer, around the newest shown.
        let newer = try #require(ChatHistoryPaging.anchor(visible: (rows - 12)...(rows - 4), entries: entries, view: view))
        #expect(newer == .index(try #require(entries.flatMap(\.messages).last).index))

        // Walking down window by window reaches the end, where the window follows the newest messages.
        var current = (view, entries)
        var moves = 0
        while let next = ChatHistoryPaging.anchor(visible: (current.1.count - 8)...(current.1.count - 1), entries: current.1, view: current.0) {
            current = try window(next)
            moves += 1
            try #require(moves < 20, "the window never reached the bottom")
            if next == .upperBound { break }
        }
        #expect(current.0.anchor == .upperBound && current.0.laterId == nil)
        #expect(current.1.flatMap(\.messages).last?.id.id == 300)
        #expect(ChatHistoryPaging.anchor(visible: (current.1.count - 8)...(current.1.count - 1), entries: current.1, view: current.0) == nil)
    }
}
