/// An entry of an `AnchoredWindow`, ordered by its key.
protocol WindowEntry {
    associatedtype Key: Comparable
    var windowKey: Key { get }
}

/// Where a window is anchored: below every key, above every key, or at a key.
enum WindowAnchor<Key: Comparable> {
    case lower
    case upper
    case key(Key)
}

/// A side of the anchor.
enum WindowSide {
    /// Keys below the anchor (earlier messages; chats further down the list).
    case lower
    /// Keys above the anchor.
    case upper
}

/// Reads a window's entries from the database.
struct WindowLoader<Entry: WindowEntry> {
    /// Up to `count` entries on `side`, strictly beyond `key` (beyond the anchor when `nil`), nearest first.
    let load: (_ side: WindowSide, _ beyond: Entry.Key?, _ count: Int) throws -> [Entry]
    /// The entry whose key equals the anchor, if stored.
    let loadAt: (Entry.Key) throws -> Entry?
}

/// The incremental core of the history and chat-list views: `count` entries around an anchor, half on each side
/// (more on one side when the other runs out), kept in step with inserts, removals and updates without re-running
/// the query. Each side holds up to `count + 1` entries nearest the anchor (enough to show the window after the
/// other side runs short, plus the neighbour just past the edge for paging); when removals leave a side short it
/// loads only the missing tail of that side (`refill`).
///
/// Invariant after `refill`: each side holds the nearest `min(count + 1, stored)` entries, and a side that is not
/// `complete` holds exactly `count + 1`.
struct AnchoredWindow<Entry: WindowEntry> {
    typealias Key = Entry.Key

    let anchor: WindowAnchor<Key>
    let count: Int
    /// Keys below the anchor, nearest (greatest) first.
    private(set) var lower: [Entry] = []
    /// The entry at the anchor key.
    private(set) var at: Entry?
    /// Keys above the anchor, nearest (smallest) first.
    private(set) var upper: [Entry] = []
    /// Whether `lower` holds every stored entry below the anchor.
    private(set) var lowerComplete: Bool
    private(set) var upperComplete: Bool

    private var capacity: Int { count + 1 }

    /// Loads the window.
    init(anchor: WindowAnchor<Key>, count: Int, loader: WindowLoader<Entry>) throws {
        self.anchor = anchor
        self.count = max(1, count)
        switch anchor {
        case .lower:
            lowerComplete = true
            upperComplete = false
        case .upper:
            lowerComplete = false
            upperComplete = true
        case .key(let key):
            lowerComplete = false
            upperComplete = false
            at = try loader.loadAt(key)
        }
        _ = try refill(loader)
    }

    /// Whether a side is short of entries it should hold.
    var needsRefill: Bool {
        (!lowerComplete && lower.count < capacity) || (!upperComplete && upper.count < capacity)
    }

    private func side(of key: Key) -> WindowSide? {
        switch anchor {
        case .lower: return .upper
        case .upper: return .lower
        case .key(let anchorKey): return key < anchorKey ? .lower : key > anchorKey ? .upper : nil
        }
    }

    /// Adds (or replaces) an entry; returns whether the loaded entries changed.
    mutating func insert(_ entry: Entry) -> Bool {
        let key = entry.windowKey
        switch side(of: key) {
        case nil:
            at = entry
            return true
        case .lower:
            return Self.insert(entry, into: &lower, complete: &lowerComplete, capacity: capacity, nearer: >)
        case .upper:
            return Self.insert(entry, into: &upper, complete: &upperComplete, capacity: capacity, nearer: <)
        }
    }

    private static func insert(
        _ entry: Entry, into list: inout [Entry], complete: inout Bool, capacity: Int, nearer: (Key, Key) -> Bool
    ) -> Bool {
        let key = entry.windowKey
        // Beyond the loaded part of an incomplete side: not among the nearest entries; a refill finds it in order.
        if !complete, let farthest = list.last, nearer(farthest.windowKey, key) { return false }
        let position = Self.position(of: key, in: list, nearer: nearer)
        if position < list.count && list[position].windowKey == key {
            list[position] = entry
            return true
        }
        list.insert(entry, at: position)
        if list.count > capacity {
            list.removeLast()
            complete = false
        }
        return true
    }

    /// The first position whose key is not nearer than `key`.
    private static func position(of key: Key, in list: [Entry], nearer: (Key, Key) -> Bool) -> Int {
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if nearer(list[middle].windowKey, key) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Removes the entry with `key` if loaded; returns whether it was.
    mutating func remove(_ key: Key) -> Bool {
        switch side(of: key) {
        case nil:
            defer { at = nil }
            return at != nil
        case .lower:
            let position = Self.position(of: key, in: lower, nearer: >)
            guard position < lower.count, lower[position].windowKey == key else { return false }
            lower.remove(at: position)
            return true
        case .upper:
            let position = Self.position(of: key, in: upper, nearer: <)
            guard position < upper.count, upper[position].windowKey == key else { return false }
            upper.remove(at: position)
            return true
        }
    }

    /// Replaces loaded entries for which `transform` returns a new value; returns whether any was replaced.
    mutating func update(_ transform: (Entry) throws -> Entry?) rethrows -> Bool {
        var changed = false
        if let current = at, let replacement = try transform(current) {
            at = replacement
            changed = true
        }
        for position in lower.indices {
            if let replacement = try transform(lower[position]) {
                lower[position] = replacement
                changed = true
            }
        }
        for position in upper.indices {
            if let replacement = try transform(upper[position]) {
                upper[position] = replacement
                changed = true
            }
        }
        return changed
    }

    /// Loads what a side is missing, beyond its farthest loaded entry only; returns whether anything was loaded.
    mutating func refill(_ loader: WindowLoader<Entry>) throws -> Bool {
        var loaded = false
        if !lowerComplete && lower.count < capacity {
            let wanted = capacity - lower.count
            let more = try loader.load(.lower, lower.last?.windowKey ?? anchorKey, wanted)
            lower += more.prefix(wanted)
            lowerComplete = more.count < wanted
            loaded = loaded || !more.isEmpty
        }
        if !upperComplete && upper.count < capacity {
            let wanted = capacity - upper.count
            let more = try loader.load(.upper, upper.last?.windowKey ?? anchorKey, wanted)
            upper += more.prefix(wanted)
            upperComplete = more.count < wanted
            loaded = loaded || !more.isEmpty
        }
        return loaded
    }

    private var anchorKey: Key? {
        if case .key(let key) = anchor { return key }
        return nil
    }

    /// Every loaded entry (visible or not).
    var loaded: [Entry] { lower + (at.map { [$0] } ?? []) + upper }

    /// The shown entries in ascending key order, and the keys just past each edge (for paging), `nil` when nothing
    /// is stored past it.
    var visible: (entries: [Entry], lowerNeighbor: Key?, upperNeighbor: Key?) {
        let remaining = count - (at == nil ? 0 : 1)
        let wantLower = remaining / 2
        let wantUpper = remaining - wantLower
        let lowerCount: Int
        let upperCount: Int
        if upper.count < wantUpper {
            upperCount = upper.count
            lowerCount = min(lower.count, remaining - upper.count)
        } else if lower.count < wantLower {
            lowerCount = lower.count
            upperCount = min(upper.count, remaining - lower.count)
        } else {
            lowerCount = wantLower
            upperCount = wantUpper
        }
        var entries: [Entry] = []
        entries.reserveCapacity(lowerCount + upperCount + 1)
        entries += lower.prefix(lowerCount).reversed()
        if let at { entries.append(at) }
        entries += upper.prefix(upperCount)
        return (
            entries, lower.count > lowerCount ? lower[lowerCount].windowKey : nil,
            upper.count > upperCount ? upper[upperCount].windowKey : nil
        )
    }
}
