public import SwiftSignalKit

/// A headless list (Telegram-iOS Display's `ListView` without UIKit): an inverted list whose index 0 is the newest item
/// at the bottom, a viewport of `viewportHeight` scrolled `scrollOffset` up from the bottom, and transactions applied
/// strictly in the order they were enqueued. Items are laid out on `layoutQueue` for the current width with their
/// neighbours — only those within two screens above and below the viewport, the rest keep their approximate height —
/// and the layouts are cached by (item, width, neighbours), so scrolling back never lays an item out twice.
///
/// The follows-bottom rule: a reader at the bottom stays at the bottom when new items arrive there; a reader who has
/// scrolled up keeps what they look at in place. State is read and changed on `deliverQueue` (every method hops onto
/// it); `onChange` is called there after each transaction or scroll is applied.
public final class ListView<Item: ListViewItem>: @unchecked Sendable {
    /// What the list shows after a change.
    public struct State: Sendable, Equatable {
        /// Stable ids from the bottom (index 0, the newest) up.
        public var stableIds: [Item.StableId]
        /// Each item's height (laid out, or approximate when outside the laid-out range).
        public var heights: [Int]
        /// Which items have a layout.
        public var laidOut: [Bool]
        /// The indices on screen.
        public var visible: ClosedRange<Int>?
        public var scrollOffset: Int
        public var isAtBottom: Bool { scrollOffset == 0 }
    }

    /// Layout work done and saved.
    public struct Statistics: Sendable, Equatable {
        public var layouts = 0
        public var cacheHits = 0
        public var transactions = 0
    }

    public let deliverQueue: Queue
    public let layoutQueue: Queue
    public let width: Int
    public let viewportHeight: Int
    /// Screens laid out ahead above and below the viewport.
    public static var preloadScreens: Int { 2 }
    /// Layouts kept in the cache (the oldest go first beyond this).
    public static var cacheLimit: Int { 4096 }

    private struct Node: Sendable {
        var item: Item
        var layout: ListViewItemLayout?
        var key: LayoutKey?
        var height: Int { layout?.height ?? item.approximateHeight }
    }

    private struct LayoutKey: Hashable, Sendable {
        let item: Item.LayoutKey
        let width: Int
        let neighbours: ListViewNeighbours
    }

    private var nodes: [Node] = []
    private var offset = 0
    /// Changes waiting, in order: a transaction, where to scroll (for `scroll(to:)`), and who hears of a refusal.
    private var queued:
        [(
            transaction: ListViewTransaction<Item>, scrollTo: Int?,
            onError: (@Sendable (ListViewTransactionError) -> Void)?
        )] = []
    private var busy = false
    private var cache: [LayoutKey: ListViewItemLayout] = [:]
    private var cacheOrder: [LayoutKey] = []
    private var stats = Statistics()
    private var changeHandler: (@Sendable (State) -> Void)?

    public init(width: Int, viewportHeight: Int, deliverQueue: Queue, layoutQueue: Queue) {
        self.width = width
        self.viewportHeight = viewportHeight
        self.deliverQueue = deliverQueue
        self.layoutQueue = layoutQueue
    }

    /// Called on `deliverQueue` after every applied change.
    public func onChange(_ handler: @escaping @Sendable (State) -> Void) {
        deliverQueue.async { self.changeHandler = handler }
    }

    /// Applies `transaction` after every transaction enqueued before it, once its items in reach are laid out; an
    /// invalid transaction is dropped and reported through `onError`.
    public func enqueue(
        _ transaction: ListViewTransaction<Item>, onError: (@Sendable (ListViewTransactionError) -> Void)? = nil
    ) {
        deliverQueue.async {
            self.queued.append((transaction, nil, onError))
            self.processNext()
        }
    }

    /// Scrolls to `offset` (clamped to the content), in order with the transactions, laying out what comes into reach.
    public func scroll(to offset: Int) {
        deliverQueue.async {
            self.queued.append((ListViewTransaction<Item>(), offset, nil))
            self.processNext()
        }
    }

    /// The current state and statistics, read on `deliverQueue`.
    public func snapshot() -> (state: State, statistics: Statistics) {
        var result: (State, Statistics)!
        deliverQueue.sync { result = (self.state(), self.stats) }
        return result
    }

    // MARK: - On the delivering queue

    private func processNext() {
        guard !busy, let (transaction, scrollTo, onError) = queued.first else { return }
        busy = true
        var next: [Node]
        do {
            next = try Self.applying(transaction, to: nodes)
        } catch {
            finish()
            onError?(error)
            return
        }
        // What the reader looks at before the change: the bottom, or the lowest visible item and where it is on screen.
        let wasAtBottom = offset == 0
        let anchor = Self.visibleRange(nodes, offset: offset, viewport: viewportHeight).map { range in
            (id: nodes[range.lowerBound].item.stableId, screenY: Self.bottomY(of: range.lowerBound, in: nodes) - offset)
        }
        settle(
            next,
            place: { nodes in Self.placedOffset(scrollTo: scrollTo, wasAtBottom: wasAtBottom, anchor: anchor, in: nodes)
            })
    }

    /// Lays out what is within reach of where the viewport goes, places it again with the real heights, and repeats
    /// until everything within reach has its layout (each round lays out at least one more item); then the change is
    /// applied at once.
    private func settle(_ candidate: [Node], place: @escaping @Sendable ([Node]) -> Int?) {
        var next = candidate
        var target = Self.clamp(place(next) ?? offset, next, viewport: viewportHeight)
        var needed: [(index: Int, item: Item, key: LayoutKey)] = []
        // Cached layouts first; each one found can move the placement, so look again until nothing new is found.
        while true {
            var found = false
            needed = []
            for index in Self.reach(next, offset: target, viewport: viewportHeight) {
                let key = LayoutKey(
                    item: next[index].item.layoutKey, width: width, neighbours: Self.neighbours(of: index, in: next))
                if next[index].key == key { continue }
                if let cached = cache[key] {
                    next[index].layout = cached
                    next[index].key = key
                    stats.cacheHits += 1
                    found = true
                } else {
                    needed.append((index, next[index].item, key))
                }
            }
            target = Self.clamp(place(next) ?? offset, next, viewport: viewportHeight)
            if !found || !needed.isEmpty { break }
        }
        if needed.isEmpty {
            nodes = next
            offset = target
            stats.transactions += 1
            finish()
            return
        }
        let width = self.width
        let prepared = next
        let work = needed
        layoutQueue.async { [self] in
            let results = work.map { ($0.index, $0.key, $0.item.layout(width: width, neighbours: $0.key.neighbours)) }
            deliverQueue.async {
                var next = prepared
                for (index, key, layout) in results {
                    next[index].layout = layout
                    next[index].key = key
                    self.store(key, layout)
                }
                self.stats.layouts += results.count
                self.settle(next, place: place)
            }
        }
    }

    private func finish() {
        queued.removeFirst()
        busy = false
        changeHandler?(state())
        processNext()
    }

    private func store(_ key: LayoutKey, _ layout: ListViewItemLayout) {
        if cache.updateValue(layout, forKey: key) == nil { cacheOrder.append(key) }
        if cacheOrder.count > Self.cacheLimit {
            let evicted = cacheOrder.removeFirst()
            cache.removeValue(forKey: evicted)
        }
    }

    private func state() -> State {
        State(
            stableIds: nodes.map(\.item.stableId), heights: nodes.map(\.height),
            laidOut: nodes.map { $0.layout != nil },
            visible: Self.visibleRange(nodes, offset: offset, viewport: viewportHeight), scrollOffset: offset)
    }

    // MARK: - Pure geometry

    private static func applying(
        _ transaction: ListViewTransaction<Item>, to nodes: [Node]
    ) throws(ListViewTransactionError) -> [Node] {
        var result = nodes
        for index in Set(transaction.deleteIndices).sorted(by: >) {
            guard result.indices.contains(index) else {
                throw .indexOutOfRange(kind: "delete", index: index, count: result.count)
            }
            result.remove(at: index)
        }
        for insert in transaction.inserts.sorted(by: { $0.index < $1.index }) {
            guard (0...result.count).contains(insert.index) else {
                throw .indexOutOfRange(kind: "insert", index: insert.index, count: result.count)
            }
            result.insert(Node(item: insert.item), at: insert.index)
        }
        for update in transaction.updates {
            guard result.indices.contains(update.index) else {
                throw .indexOutOfRange(kind: "update", index: update.index, count: result.count)
            }
            // The old layout stays until the new one is made (its key no longer matches).
            result[update.index].item = update.item
        }
        return result
    }

    private static func neighbours(of index: Int, in nodes: [Node]) -> ListViewNeighbours {
        let item = nodes[index].item
        return ListViewNeighbours(
            mergedAbove: index + 1 < nodes.count && item.merges(with: nodes[index + 1].item),
            mergedBelow: index > 0 && item.merges(with: nodes[index - 1].item))
    }

    /// Where the viewport goes after a change: where it was asked to, at the bottom for a reader who was there, or so
    /// that the anchor item keeps its place on screen; nil when none applies (the anchor is gone).
    private static func placedOffset(
        scrollTo: Int?, wasAtBottom: Bool, anchor: (id: Item.StableId, screenY: Int)?, in nodes: [Node]
    ) -> Int? {
        if let scrollTo { return scrollTo }
        if wasAtBottom { return 0 }
        guard let anchor, let index = nodes.firstIndex(where: { $0.item.stableId == anchor.id }) else { return nil }
        return bottomY(of: index, in: nodes) - anchor.screenY
    }

    /// The distance from the content's bottom to item `index`'s bottom edge.
    private static func bottomY(of index: Int, in nodes: [Node]) -> Int {
        nodes[..<index].reduce(0) { $0 + $1.height }
    }

    private static func clamp(_ offset: Int, _ nodes: [Node], viewport: Int) -> Int {
        let content = nodes.reduce(0) { $0 + $1.height }
        return max(0, min(offset, max(0, content - viewport)))
    }

    private static func indices(_ nodes: [Node], from low: Int, to high: Int) -> ClosedRange<Int>? {
        var y = 0
        var first: Int?
        var last: Int?
        for (index, node) in nodes.enumerated() {
            let top = y + node.height
            if top > low && y < high {
                if first == nil { first = index }
                last = index
            }
            if y >= high { break }
            y = top
        }
        guard let first, let last else { return nil }
        return first...last
    }

    private static func visibleRange(_ nodes: [Node], offset: Int, viewport: Int) -> ClosedRange<Int>? {
        indices(nodes, from: offset, to: offset + viewport)
    }

    /// The items to lay out: the viewport and `preloadScreens` screens above and below it.
    private static func reach(_ nodes: [Node], offset: Int, viewport: Int) -> [Int] {
        guard
            let range = indices(
                nodes, from: offset - preloadScreens * viewport, to: offset + viewport + preloadScreens * viewport)
        else { return [] }
        return Array(range)
    }
}
