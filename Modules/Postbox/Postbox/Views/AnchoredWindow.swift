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
/// loads only what lies past its boundary (`refill`).
///
/// Invariant: a side that is not `complete` holds every stored entry between the anchor and its `boundary` key
/// (inclusive), nearest first; after `refill` it holds exactly `count + 1` of them. A complete side holds every
/// stored entry on its side.
struct AnchoredWindow<Entry: WindowEntry> {
    typealias Key = Entry.Key

    /// One side of the anchor: its entries, nearest first, and how far they are known to reach.
    struct Side {
        var entries: [Entry] = []
        /// Whether `entries` holds every stored entry on this side.
        var complete: Bool
        /// For an incomplete side: the farthest key up to which `entries` is exact (`nil`: nothing loaded yet).
        var boundary: Key?
        /// Whether `lhs` is nearer the anchor than `rhs` on this side.
        let nearer: (Key, Key) -> Bool

        /// The first position whose key is not nearer than `key`.
        func position(of key: Key) -> Int {
            var low = 0
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if nearer(entries[middle].windowKey, key) { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// Whether `key` lies within the exact part of this side.
        func covers(_ key: Key) -> Bool {
            if complete { return true }
            guard let boundary else { return false }
            return !nearer(boundary, key)
        }

        mutating func insert(_ entry: Entry, capacity: Int) -> Bool {
            let key = entry.windowKey
            // Past the exact part: not among the nearest entries; a refill finds it in order.
            guard covers(key) else { return false }
            let position = position(of: key)
            if position < entries.count && entries[position].windowKey == key {
                entries[position] = entry
                return true
            }
            entries.insert(entry, at: position)
            if entries.count > capacity {
                entries.removeLast()
                complete = false
                boundary = entries.last?.windowKey
            }
            return true
        }

        mutating func remove(_ key: Key) -> Bool {
            let position = position(of: key)
            guard position < entries.count, entries[position].windowKey == key else { return false }
            entries.remove(at: position)
            return true
        }

        mutating func refill(capacity: Int, anchorKey: Key?, load: (Key?, Int) throws -> [Entry]) throws -> Bool {
            guard !complete && entries.count < capacity else { return false }
            let wanted = capacity - entries.count
            let more = try load(boundary ?? anchorKey, wanted)
            entries += more.prefix(wanted)
            complete = more.count < wanted
            boundary = complete ? nil : entries.last?.windowKey
            return !more.isEmpty
        }
    }

    let anchor: WindowAnchor<Key>
    let count: Int
    /// Keys below the anchor, nearest (greatest) first.
    private(set) var lower: Side
    /// The entry at the anchor key.
    private(set) var at: Entry?
    /// Keys above the anchor, nearest (smallest) first.
    private(set) var upper: Side

    private var capacity: Int { count + 1 }

    /// Loads the window.
    init(anchor: WindowAnchor<Key>, count: Int, loader: WindowLoader<Entry>) throws {
        self.anchor = anchor
        self.count = max(1, count)
        lower = Side(complete: false, boundary: nil, nearer: { $0 > $1 })
        upper = Side(complete: false, boundary: nil, nearer: { $0 < $1 })
        switch anchor {
        case .lower: lower.complete = true
        case .upper: upper.complete = true
        case .key(let key): at = try loader.loadAt(key)
        }
        _ = try refill(loader)
    }

    /// Whether a side is short of entries it should hold.
    var needsRefill: Bool {
        (!lower.complete && lower.entries.count < capacity) || (!upper.complete && upper.entries.count < capacity)
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
        switch side(of: entry.windowKey) {
        case nil:
            at = entry
            return true
        case .lower: return lower.insert(entry, capacity: capacity)
        case .upper: return upper.insert(entry, capacity: capacity)
        }
    }

    /// Removes the entry with `key` if loaded; returns whether it was.
    mutating func remove(_ key: Key) -> Bool {
        switch side(of: key) {
        case nil:
            defer { at = nil }
            return at != nil
        case .lower: return lower.remove(key)
        case .upper: return upper.remove(key)
        }
    }

    /// Replaces loaded entries for which `transform` returns a new value; returns whether any was replaced.
    mutating func update(_ transform: (Entry) throws -> Entry?) rethrows -> Bool {
        var changed = false
        if let current = at, let replacement = try transform(current) {
            at = replacement
            changed = true
        }
        for position in lower.entries.indices {
            if let replacement = try transform(lower.entries[position]) {
                lower.entries[position] = replacement
                changed = true
            }
        }
        for position in upper.entries.indices {
            if let replacement = try transform(upper.entries[position]) {
                upper.entries[position] = replacement
                changed = true
            }
        }
        return changed
    }

    /// Loads what a side is missing, past its boundary only; returns whether anything was loaded.
    mutating func refill(_ loader: WindowLoader<Entry>) throws -> Bool {
        let anchorKey: Key?
        if case .key(let key) = anchor { anchorKey = key } else { anchorKey = nil }
        let loadedLower = try lower.refill(capacity: capacity, anchorKey: anchorKey) { try loader.load(.lower, $0, $1) }
        let loadedUpper = try upper.refill(capacity: capacity, anchorKey: anchorKey) { try loader.load(.upper, $0, $1) }
        return loadedLower || loadedUpper
    }

    /// Every loaded entry (visible or not).
    var loaded: [Entry] { lower.entries + (at.map { [$0] } ?? []) + upper.entries }

    /// The shown entries in ascending key order, and the keys just past each edge (for paging), `nil` when nothing
    /// is stored past it.
    var visible: (entries: [Entry], lowerNeighbor: Key?, upperNeighbor: Key?) {
        let lower = self.lower.entries
        let upper = self.upper.entries
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
