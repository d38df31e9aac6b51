/// A weak reference to an object.
public final class Weak<T: AnyObject> {
    private weak var _value: T?

    /// The object, while something else keeps it alive.
    public var value: T? { _value }

    /// A weak reference to `value`.
    public init(_ value: T) {
        self._value = value
    }
}

/// An ordered collection whose items are addressed by monotonic indices (not thread-safe: use it under a lock).
public final class Bag<T> {
    /// The handle `add` returns; never reused.
    public typealias Index = Int

    private var nextIndex: Index = 0
    private var items: [T] = []
    private var itemKeys: [Index] = []

    /// An empty bag.
    public init() {}

    /// Adds `item` and returns its index.
    public func add(_ item: T) -> Index {
        let key = nextIndex
        nextIndex += 1
        items.append(item)
        itemKeys.append(key)
        return key
    }

    /// The item at `index`, if still present.
    public func get(_ index: Index) -> T? {
        guard let position = position(of: index) else { return nil }
        return items[position]
    }

    /// Removes the item at `index` (no-op if absent).
    public func remove(_ index: Index) {
        guard let position = position(of: index) else { return }
        items.remove(at: position)
        itemKeys.remove(at: position)
    }

    /// Removes every item; indices keep growing.
    public func removeAll() {
        items.removeAll()
        itemKeys.removeAll()
    }

    /// The items in insertion order.
    public func copyItems() -> [T] {
        items
    }

    /// The items with their indices, in insertion order.
    public func copyItemsWithIndices() -> [(Index, T)] {
        Array(zip(itemKeys, items))
    }

    /// Whether the bag holds nothing.
    public var isEmpty: Bool { items.isEmpty }

    /// The oldest item and its index.
    public var first: (Index, T)? {
        items.isEmpty ? nil : (itemKeys[0], items[0])
    }

    private func position(of index: Index) -> Int? {
        // Keys are increasing: binary search.
        var low = 0
        var high = itemKeys.count
        while low < high {
            let mid = (low + high) / 2
            if itemKeys[mid] < index { low = mid + 1 } else { high = mid }
        }
        return low < itemKeys.count && itemKeys[low] == index ? low : nil
    }
}

/// A bag that iterates as a `Sequence`, leaving holes on removal (not thread-safe).
public final class SparseBag<T>: Sequence {
    /// The handle `add` returns.
    public typealias Index = Int

    private var slots: [T?] = []
    private var count = 0

    /// An empty bag.
    public init() {}

    /// Adds `item` and returns its index.
    public func add(_ item: T) -> Index {
        slots.append(item)
        count += 1
        return slots.count - 1
    }

    /// The item at `index`, if present.
    public func get(_ index: Index) -> T? {
        index >= 0 && index < slots.count ? slots[index] : nil
    }

    /// Removes the item at `index`; when the bag empties, the slots are reclaimed.
    public func remove(_ index: Index) {
        guard index >= 0, index < slots.count, slots[index] != nil else { return }
        slots[index] = nil
        count -= 1
        if count == 0 { slots.removeAll() }
    }

    /// Whether the bag holds nothing.
    public var isEmpty: Bool { count == 0 }

    public func makeIterator() -> AnyIterator<T> {
        var iterator = slots.makeIterator()
        return AnyIterator {
            while let slot = iterator.next() {
                if let item = slot { return item }
            }
            return nil
        }
    }
}

/// A set of opaque tokens: counts how many holders are present (not thread-safe).
public final class CounterBag {
    private var nextIndex = 1
    private var items = Set<Int>()

    /// An empty bag.
    public init() {}

    /// Adds a holder and returns its token.
    public func add() -> Int {
        let index = nextIndex
        nextIndex += 1
        items.insert(index)
        return index
    }

    /// Removes the holder with `index`.
    public func remove(_ index: Int) {
        items.remove(index)
    }

    /// Whether no holder is present.
    public var isEmpty: Bool { items.isEmpty }
}
