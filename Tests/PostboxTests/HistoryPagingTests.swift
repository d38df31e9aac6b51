import Postbox
import PostboxTesting
import SignalTesting
import Testing

@Suite("History paging")
struct HistoryPagingTests {
    @Test("the window of 44 moves when the visible range comes within 5 entries of an edge with more messages")
    func windowFollowsScrolling() throws {
        let (postbox, directory) = try makePostbox()
        defer { _ = directory }
        let chat = peer(1)
        try postbox.transactionSync { tx in try tx.addMessages((1...200).map { message(chat, $0) }) }
        let pager = ChatHistoryPager(peerId: chat)
        let views = ViewRecorder(pager.view(postbox))
        try postbox.drainQueue()
        let first = try #require(views.last)
        #expect(first.entries.map(\.message.id.id) == Array(157...200))
        #expect(first.earlierId?.id.id == 156 && first.laterId == nil)

        // At the bottom: no newer messages, so nothing moves; in the middle: far from both edges.
        #expect(pager.visibleRangeChanged(33...43, in: first) == nil)
        #expect(pager.visibleRangeChanged(10...30, in: first) == nil)

        // Scrolling up to within 5 entries of the top re-anchors at the middle of the visible range.
        let moved = pager.visibleRangeChanged(2...12, in: first)
        #expect(moved == .index(first.entries[7].index))
        try postbox.drainQueue()
        let second = try #require(views.last)
        #expect(views.count == 2)
        #expect(second.entries.count == 44)
        #expect(second.entries.map(\.message.id.id) == Array(143...186))
        #expect(second.earlierId?.id.id == 142 && second.laterId?.id.id == 187)
        // Everything that was visible is still in the window, with room on both sides.
        #expect(Set(second.entries.map(\.message.id.id)).isSuperset(of: 159...169))

        // The new window is live like any view.
        try postbox.transactionSync { tx in try tx.deleteMessages([MessageId(peerId: chat, namespace: 0, id: 150)]) }
        #expect(views.last?.entries.map(\.message.id.id) == Array(142...149) + Array(151...186))

        // Scrolling down to the newest messages moves back to a window that reaches them.
        let last = try #require(views.last)
        let down = pager.visibleRangeChanged(33...42, in: last)
        #expect(down != nil)
        try postbox.drainQueue()
        #expect(views.last?.entries.contains { $0.message.id.id == 186 } == true)
        views.dispose()
    }

    @Test("the paging rule does not move a window whose edges hold everything stored")
    func smallChatsNeverPage() throws {
        let (postbox, directory) = try makePostbox()
        defer { _ = directory }
        let chat = peer(2)
        try postbox.transactionSync { tx in try tx.addMessages((1...20).map { message(chat, $0) }) }
        let views = ViewRecorder(postbox.aroundMessageHistoryViewForLocation(peerId: chat, anchor: .upperBound, count: 44))
        try postbox.drainQueue()
        let view = try #require(views.last)
        #expect(view.entries.count == 20)
        #expect(MessageHistoryPaging().anchor(forVisible: 0...3, in: view) == nil)
        #expect(MessageHistoryPaging().anchor(forVisible: 16...19, in: view) == nil)
        views.dispose()
    }
}
