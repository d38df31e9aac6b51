/// Which way an inserted or updated item comes from, for the animation a UI picks (Telegram-iOS
/// `ListViewItemOperationDirectionHint`).
public enum ListViewDirectionHint: Sendable, Equatable {
    case up
    case down
}

/// One change to a list (Telegram-iOS `ListView.transaction(deleteIndices:insertIndicesAndItems:
/// updateIndicesAndItems:…)`): deletes by index in the list before the change, then inserts by index in the list
/// after it (ascending), then updates by index after it. Index 0 is the bottom of the inverted list, the newest item.
public struct ListViewTransaction<Item: ListViewItem>: Sendable {
    public struct Insert: Sendable {
        public var index: Int
        public var previousIndex: Int?
        public var item: Item
        public var directionHint: ListViewDirectionHint?

        public init(index: Int, previousIndex: Int? = nil, item: Item, directionHint: ListViewDirectionHint? = nil) {
            self.index = index
            self.previousIndex = previousIndex
            self.item = item
            self.directionHint = directionHint
        }
    }

    public struct Update: Sendable {
        public var index: Int
        public var previousIndex: Int
        public var item: Item
        public var directionHint: ListViewDirectionHint?

        public init(index: Int, previousIndex: Int, item: Item, directionHint: ListViewDirectionHint? = nil) {
            self.index = index
            self.previousIndex = previousIndex
            self.item = item
            self.directionHint = directionHint
        }
    }

    public var deleteIndices: [Int]
    public var inserts: [Insert]
    public var updates: [Update]

    public init(deleteIndices: [Int] = [], inserts: [Insert] = [], updates: [Update] = []) {
        self.deleteIndices = deleteIndices
        self.inserts = inserts
        self.updates = updates
    }
}

/// Why a transaction could not be applied; the list is left as it was.
public enum ListViewTransactionError: Error, Equatable, Sendable {
    /// A delete, insert or update names an index outside the list at that step.
    case indexOutOfRange(kind: String, index: Int, count: Int)
}
