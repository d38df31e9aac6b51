/// The subscribers of a hot source (Promise, ValuePipe, Multicast), with a cached snapshot for fan-out.
///
/// Not thread-safe: owners keep it inside their LockedValue. `snapshot()` returns the same array (one retain, no copy)
/// until a subscriber is added or removed, so a fan-out to N subscribers copies nothing per update.
@usableFromInline
struct SubscriberList<T, E> {
    @usableFromInline let bag = Bag<Subscriber<T, E>>()
    @usableFromInline var cached: [Subscriber<T, E>]?

    @usableFromInline
    init() {}

    mutating func add(_ subscriber: Subscriber<T, E>) -> Int {
        cached = nil
        return bag.add(subscriber)
    }

    mutating func remove(_ index: Int) {
        cached = nil
        bag.remove(index)
    }

    var isEmpty: Bool { bag.isEmpty }

    @inlinable
    mutating func snapshot() -> [Subscriber<T, E>] {
        if let cached { return cached }
        let items = bag.copyItems()
        cached = items
        return items
    }
}
