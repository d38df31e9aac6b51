/// Something a list shows (Telegram-iOS Display's `ListViewItem`, without nodes): a stable identity, an approximate
/// height for before it is laid out, and a layout for a width that knows its neighbours — a chat bubble merges with the
/// previous message of the same author.
public protocol ListViewItem: Sendable {
    associatedtype StableId: Hashable & Sendable
    associatedtype LayoutKey: Hashable & Sendable
    /// The identity that survives updates.
    var stableId: StableId { get }
    /// What the layout depends on besides the width and the neighbours (the content and its version): two items with
    /// the same key, width and neighbours lay out the same, so the layout is cached under it.
    var layoutKey: LayoutKey { get }
    /// The height assumed until the item is laid out.
    var approximateHeight: Int { get }
    /// Whether this item merges with `other` when they are neighbours.
    func merges(with other: Self) -> Bool
    /// Lays the item out for `width` (called off the delivering queue).
    func layout(width: Int, neighbours: ListViewNeighbours) -> ListViewItemLayout
}

/// Whether an item merges with the one above (older) and below (newer) it.
public struct ListViewNeighbours: Hashable, Sendable {
    public var mergedAbove: Bool
    public var mergedBelow: Bool

    public init(mergedAbove: Bool, mergedBelow: Bool) {
        self.mergedAbove = mergedAbove
        self.mergedBelow = mergedBelow
    }
}

/// An item's layout: its height, and whatever the item computed for drawing.
public struct ListViewItemLayout: Sendable {
    public var height: Int
    public var content: (any Sendable)?

    public init(height: Int, content: (any Sendable)? = nil) {
        self.height = height
        self.content = content
    }
}
