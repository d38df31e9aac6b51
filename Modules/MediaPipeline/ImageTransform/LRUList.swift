/// A least-recently-used map: O(1) get, set and eviction through a dictionary of indices into a doubly linked list
/// kept in arrays (no per-node allocation).
struct LRUList<Key: Hashable, Value> {
    private var index: [Key: Int] = [:]
    private var keys: [Key?] = []
    private var values: [Value?] = []
    private var prev: [Int] = []
    private var next: [Int] = []
    private var free: [Int] = []
    private var head = -1  // most recent
    private var tail = -1  // least recent

    var count: Int { index.count }

    mutating func get(_ key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        moveToFront(slot)
        return values[slot]
    }

    /// Inserts or replaces; returns the replaced value.
    @discardableResult
    mutating func set(_ key: Key, _ value: Value) -> Value? {
        if let slot = index[key] {
            let old = values[slot]
            values[slot] = value
            moveToFront(slot)
            return old
        }
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            keys[slot] = key
            values[slot] = value
        } else {
            slot = keys.count
            keys.append(key)
            values.append(value)
            prev.append(-1)
            next.append(-1)
        }
        index[key] = slot
        link(slot)
        return nil
    }

    mutating func removeLeastRecent() -> Value? {
        guard tail >= 0 else { return nil }
        let slot = tail
        unlink(slot)
        let value = values[slot]
        index[keys[slot]!] = nil
        keys[slot] = nil
        values[slot] = nil
        free.append(slot)
        return value
    }

    /// Keys from most to least recently used.
    var keysByRecency: [Key] {
        var out: [Key] = []
        var slot = head
        while slot >= 0 {
            out.append(keys[slot]!)
            slot = next[slot]
        }
        return out
    }

    private mutating func moveToFront(_ slot: Int) {
        guard head != slot else { return }
        unlink(slot)
        link(slot)
    }

    private mutating func link(_ slot: Int) {
        prev[slot] = -1
        next[slot] = head
        if head >= 0 { prev[head] = slot }
        head = slot
        if tail < 0 { tail = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let p = prev[slot], n = next[slot]
        if p >= 0 { next[p] = n } else { head = n }
        if n >= 0 { prev[n] = p } else { tail = p }
        prev[slot] = -1
        next[slot] = -1
    }
}
