/// The changes that turn the left (old) list into the right (new) list, in the form Telegram-iOS's `ListView`
/// applies them (`submodules/Display/Source/ListView.swift`, `deleteAndInsertItemsTransaction`).
///
/// Apply in this order, and the left list becomes exactly the right list (`applied(to:)` does it):
/// 1. remove every `deleteIndices` entry, highest index first (they are indices into the left list);
/// 2. insert every `inserts` entry in ascending `index` order (each `index` is the item's position in the right
///    list, so it is valid at the moment it is inserted);
/// 3. replace the item at every `updates` entry's `index` (also a position in the right list).
///
/// Telegram-iOS returns the same three parts as a tuple from `mergeListsStableWithUpdates`
/// (`submodules/MergeLists/Sources/MergeLists.swift`).
public struct ListMergeResult<Item> {
    /// An item that appears at `index` of the right list and was not kept from the left list.
    public struct Insert {
        /// Its position in the right list.
        public var index: Int
        /// The right list's item.
        public var item: Item
        /// Where an item with the same `stableId` was in the left list, when it was deleted there: the item moved
        /// (its sort key changed past a neighbour's) or, in `ListMerge.stable`, its content changed. `nil` for a
        /// new item. `ListView` uses it to animate the move.
        public var previousIndex: Int?

        /// An insert at `index` of the right list.
        public init(index: Int, item: Item, previousIndex: Int?) {
            self.index = index
            self.item = item
            self.previousIndex = previousIndex
        }
    }

    /// An item kept in place whose content changed (or every kept item, when `allUpdated`).
    public struct Update {
        /// Its position in the right list.
        public var index: Int
        /// The right list's (new) item.
        public var item: Item
        /// Its position in the left list.
        public var previousIndex: Int

        /// An update of the item at `index` of the right list, which was at `previousIndex` of the left list.
        public init(index: Int, item: Item, previousIndex: Int) {
            self.index = index
            self.item = item
            self.previousIndex = previousIndex
        }
    }

    /// Indices into the left list of the items to remove, ascending. Remove them highest first.
    public var deleteIndices: [Int]
    /// Items to insert, ascending by `index` (positions in the right list).
    public var inserts: [Insert]
    /// Items to replace after the deletes and inserts, ascending by `index` (positions in the right list).
    public var updates: [Update]

    /// A result with the three parts given.
    public init(deleteIndices: [Int] = [], inserts: [Insert] = [], updates: [Update] = []) {
        self.deleteIndices = deleteIndices
        self.inserts = inserts
        self.updates = updates
    }

    /// Whether the two lists were the same (no delete, insert or update).
    public var isEmpty: Bool { deleteIndices.isEmpty && inserts.isEmpty && updates.isEmpty }

    /// `left` with the changes applied in `ListView`'s order: deletes highest first, inserts ascending, then
    /// updates. For a result of `ListMerge` on `left`, this is the right list. Meant for results computed from
    /// `left`: on another list an index may be out of range, which traps as `Array`'s subscripts do.
    public func applied(to left: [Item]) -> [Item] {
        var items = left
        for index in deleteIndices.sorted(by: >) { items.remove(at: index) }
        for insert in inserts.sorted(by: { $0.index < $1.index }) { items.insert(insert.item, at: insert.index) }
        for update in updates { items[update.index] = update.item }
        return items
    }
}

extension ListMergeResult: Sendable where Item: Sendable {}
extension ListMergeResult.Insert: Sendable where Item: Sendable {}
extension ListMergeResult.Update: Sendable where Item: Sendable {}
extension ListMergeResult: Equatable where Item: Equatable {}
extension ListMergeResult.Insert: Equatable where Item: Equatable {}
extension ListMergeResult.Update: Equatable where Item: Equatable {}
