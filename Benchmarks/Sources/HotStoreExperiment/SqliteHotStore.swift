public import ValueBox

/// The same hot-key interface over a ValueBox table in the encrypted SQLCipher database.
public final class SqliteHotStore: HotKeyValueStore {
    private let valueBox: SqliteValueBox
    private let table: ValueBoxTable

    /// A store over `table` of `valueBox` (binary keys, stored `WITHOUT ROWID`).
    public init(valueBox: SqliteValueBox, tableId: Int32) {
        self.valueBox = valueBox
        self.table = ValueBoxTable(id: tableId, keyType: .binary, compactValuesOnCreation: true)
    }

    public func get(_ key: [UInt8]) throws -> [UInt8]? {
        var result: [UInt8]?
        try read([key]) { _, value in result = value }
        return result
    }

    public func read(_ keys: [[UInt8]], _ body: ([UInt8], [UInt8]?) -> Void) throws {
        try valueBox.beginRead()
        defer { valueBox.rollback() }
        for key in keys { body(key, try valueBox.get(table, key: ValueBoxKey(key))) }
    }

    public func set(_ pairs: [(key: [UInt8], value: [UInt8])]) throws {
        try valueBox.begin()
        do {
            for (key, value) in pairs { try valueBox.set(table, key: ValueBoxKey(key), value: value) }
            try valueBox.commit()
        } catch {
            valueBox.rollback()
            throw error
        }
    }

    public func remove(_ key: [UInt8]) throws {
        try valueBox.begin()
        try valueBox.remove(table, key: ValueBoxKey(key))
        try valueBox.commit()
    }
}
