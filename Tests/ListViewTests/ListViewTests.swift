import ListView
import SignalTesting
import SwiftSignalKit
import Testing

/// A row of text: its height grows with the lines the text needs at the width; rows of one author merge (a merged
/// row has no gap above it). Every layout is counted.
struct Row: ListViewItem {
    let id: Int
    let author: Int
    let text: String
    var version = 0
    let layouts: LockedValue<Int>

    var stableId: Int { id }
    var layoutKey: String { "\(id)#\(version)#\(text)" }
    var approximateHeight: Int { 40 }
    func merges(with other: Row) -> Bool { other.author == author }
    func layout(width: Int, neighbours: ListViewNeighbours) -> ListViewItemLayout {
        layouts.withLock { $0 += 1 }
        let lines = max(1, (text.count * 8 + width - 1) / width)
        return ListViewItemLayout(height: 18 * lines + (neighbours.mergedAbove ? 2 : 8))
    }
}

@Suite struct ListViewTests {
    let scheduler = VirtualTimeScheduler()
    let layouts = LockedValue(0)

    func makeList() -> ListView<Row> {
        ListView<Row>(width: 320, viewportHeight: 400, deliverQueue: scheduler.makeQueue(name: "deliver"), layoutQueue: scheduler.makeQueue(name: "layout"))
    }

    func rows(_ ids: Range<Int>, text: (Int) -> String = { "message \($0)" }) -> [Row] {
        ids.map { Row(id: $0, author: $0 / 3, text: text($0), layouts: layouts) }
    }

    /// Inserts `rows` (newest first) as the whole list.
    func fill(_ list: ListView<Row>, _ rows: [Row]) {
        list.enqueue(ListViewTransaction(inserts: rows.enumerated().map { .init(index: $0.offset, item: $0.element) }))
        _ = scheduler.run()
    }

    @Test func onlyTwoScreensAboveAndBelowAreLaidOut() {
        let list = makeList()
        fill(list, rows(0..<300))
        let (state, statistics) = list.snapshot()
        #expect(state.stableIds.count == 300 && state.isAtBottom && state.visible?.lowerBound == 0)
        // Laid out: the rows whose span reaches below 400 + 2 × 400 from the bottom, as estimated before layout.
        let laidOut = state.laidOut.lastIndex(of: true) ?? -1
        #expect(state.laidOut.prefix(laidOut + 1).allSatisfy { $0 } && !state.laidOut.suffix(from: laidOut + 1).contains(true))
        #expect(laidOut >= 20 && laidOut < 60, "reach is 1,200 points of 40-point estimates: 30 rows, got \(laidOut + 1)")
        #expect(statistics.layouts == laidOut + 1 && layouts.withLock { $0 } == laidOut + 1)
        #expect(state.heights[laidOut + 1] == 40, "rows out of reach keep their approximate height")
    }

    @Test func aNewMessageScrollsOnlyAReaderAtTheBottom() throws {
        let list = makeList()
        fill(list, rows(0..<100))
        // At the bottom: the new row shows, still at the bottom.
        list.enqueue(ListViewTransaction(inserts: [.init(index: 0, item: Row(id: 1000, author: 99, text: "new", layouts: layouts), directionHint: .up)]))
        _ = scheduler.run()
        var state = list.snapshot().state
        #expect(state.stableIds.first == 1000 && state.isAtBottom && state.visible?.lowerBound == 0)

        // Scrolled up: the rows being read stay where they are on screen.
        list.scroll(to: 900)
        _ = scheduler.run()
        state = list.snapshot().state
        let anchorIndex = try #require(state.visible?.lowerBound)
        let anchorId = state.stableIds[anchorIndex]
        let screenY = state.heights[..<anchorIndex].reduce(0, +) - state.scrollOffset
        list.enqueue(ListViewTransaction(inserts: [.init(index: 0, item: Row(id: 1001, author: 98, text: "another", layouts: layouts))]))
        _ = scheduler.run()
        state = list.snapshot().state
        let moved = try #require(state.stableIds.firstIndex(of: anchorId))
        #expect(state.heights[..<moved].reduce(0, +) - state.scrollOffset == screenY, "the row being read stayed in place")
        #expect(!state.isAtBottom && state.stableIds.first == 1001)
    }

    @Test func transactionsApplyInOrderAfterTheirLayouts() {
        let list = makeList()
        let seen = LockedValue<[[Int]]>([])
        list.onChange { state in seen.withLock { $0.append(state.stableIds) } }
        let errors = LockedValue<[ListViewTransactionError]>([])
        // Enqueued together: each waits for the one before and for its own layouts.
        list.enqueue(ListViewTransaction(inserts: rows(0..<10).enumerated().map { .init(index: $0.offset, item: $0.element) }))
        list.enqueue(ListViewTransaction(deleteIndices: [0, 1]))
        list.enqueue(ListViewTransaction(deleteIndices: [50]), onError: { error in errors.withLock { $0.append(error) } })
        var edited = rows(2..<3, text: { _ in "edited and now much longer than it was before, over several lines" })[0]
        edited.version = 1
        list.enqueue(ListViewTransaction(updates: [.init(index: 0, previousIndex: 0, item: edited)]))
        #expect(seen.withLock { $0 }.isEmpty, "nothing applies before its layouts are made")
        _ = scheduler.run()
        #expect(seen.withLock { $0 } == [Array(0..<10), Array(2..<10), Array(2..<10), Array(2..<10)])
        #expect(errors.withLock { $0 } == [.indexOutOfRange(kind: "delete", index: 50, count: 8)])
        let (state, statistics) = list.snapshot()
        #expect(statistics.transactions == 3)
        #expect(state.heights[0] > 18 * 2, "the update was laid out again: several lines")
    }

    @Test func scrollingBackAndPagingBackLayNothingOutTwice() throws {
        let list = makeList()
        fill(list, rows(0..<300))
        list.scroll(to: 6_000)
        _ = scheduler.run()
        let afterScroll = list.snapshot()
        #expect(afterScroll.state.visible.map { $0.lowerBound > 50 } == true)
        let visible = try #require(afterScroll.state.visible)
        #expect(visible.allSatisfy { afterScroll.state.laidOut[$0] }, "every visible row has its layout")
        list.scroll(to: 0)
        _ = scheduler.run()
        list.scroll(to: 6_000)
        _ = scheduler.run()
        let back = list.snapshot()
        #expect(back.statistics.layouts == afterScroll.statistics.layouts, "scrolling back laid nothing out again")
        #expect(back.state.scrollOffset == afterScroll.state.scrollOffset)

        // Paging: the window moves to other rows (every row replaced), then back; the first window's rows come from
        // the cache by content, width and neighbours.
        list.scroll(to: 0)
        _ = scheduler.run()
        let before = list.snapshot().statistics
        list.enqueue(ListViewTransaction(deleteIndices: Array(0..<300), inserts: rows(500..<544).enumerated().map { .init(index: $0.offset, item: $0.element) }))
        _ = scheduler.run()
        list.enqueue(ListViewTransaction(deleteIndices: Array(0..<44), inserts: rows(0..<300).enumerated().map { .init(index: $0.offset, item: $0.element) }))
        _ = scheduler.run()
        let paged = list.snapshot()
        #expect(paged.state.stableIds == Array(0..<300) && paged.state.isAtBottom)
        #expect(paged.statistics.layouts == before.layouts + 44, "only the other window's rows were laid out")
        #expect(paged.statistics.cacheHits > before.cacheHits)
    }
}
