import SQLite

/// Per-table lookups on every read and write, indexed by table id instead of hashed: Postbox's table ids are small
/// (0…100), so ids below `denseLimit` live in flat arrays and any other id in a dictionary. A bulk insert makes
/// several such lookups per message (a hash of a small integer cost about 200 instructions in callgrind, an array
/// index a few).
enum TableIdLookup {
    /// Ids in `0..<denseLimit` are stored densely.
    static let denseLimit: Int32 = 1024
    /// Slots per table in `StatementCache` (more than `SqliteValueBox.StatementKind` has cases).
    static let kindsPerTable = 32
}

/// The prepared statements of one connection by table id and statement kind.
struct StatementCache {
    private var dense: [Statement?] = []
    private var sparse: [SqliteValueBox.StatementKey: Statement] = [:]

    init() {
        // Checked once here rather than on every lookup: every kind has a slot of its own.
        precondition(
            SqliteValueBox.StatementKind.allCases.allSatisfy { Int($0.rawValue) < TableIdLookup.kindsPerTable },
            "StatementKind outgrew its slots")
    }

    /// The slot in `dense` for a table and kind, or `nil` when the table id is not dense.
    private static func slot(_ table: Int32, _ kind: SqliteValueBox.StatementKind) -> Int? {
        guard table >= -1, table < TableIdLookup.denseLimit else { return nil }
        return Int(table + 1) * TableIdLookup.kindsPerTable + Int(kind.rawValue)
    }

    subscript(table: Int32, kind: SqliteValueBox.StatementKind) -> Statement? {
        get {
            guard let slot = Self.slot(table, kind) else {
                return sparse[SqliteValueBox.StatementKey(table: table, kind: kind)]
            }
            return slot < dense.count ? dense[slot] : nil
        }
        set {
            guard let slot = Self.slot(table, kind) else {
                sparse[SqliteValueBox.StatementKey(table: table, kind: kind)] = newValue
                return
            }
            if slot >= dense.count { dense.append(contentsOf: repeatElement(nil, count: slot + 1 - dense.count)) }
            dense[slot] = newValue
        }
    }

    /// Drops every statement (finalizing those nothing else holds).
    mutating func removeAll() {
        dense.removeAll()
        sparse.removeAll()
    }
}

/// A set of table ids.
struct TableIdSet {
    private var dense: [Bool] = []
    private var sparse: Set<Int32> = []

    init() {}

    init<S: Sequence<Int32>>(_ ids: S) {
        for id in ids { insert(id) }
    }

    func contains(_ id: Int32) -> Bool {
        guard id >= 0, id < TableIdLookup.denseLimit else { return sparse.contains(id) }
        return Int(id) < dense.count && dense[Int(id)]
    }

    mutating func insert(_ id: Int32) {
        guard id >= 0, id < TableIdLookup.denseLimit else {
            sparse.insert(id)
            return
        }
        if Int(id) >= dense.count { dense.append(contentsOf: repeatElement(false, count: Int(id) + 1 - dense.count)) }
        dense[Int(id)] = true
    }
}
