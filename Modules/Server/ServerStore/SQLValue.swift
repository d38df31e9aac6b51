import SQLite

/// A value bound to, or read from, one SQL parameter or column.
public enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null

    /// `value` as `.integer`, or `.null` when absent.
    public static func optional(_ value: Int64?) -> SQLValue { value.map(SQLValue.integer) ?? .null }
    /// `value` as `.text`, or `.null` when absent.
    public static func optional(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
    /// `value` as `.blob`, or `.null` when absent.
    public static func optional(_ value: [UInt8]?) -> SQLValue { value.map(SQLValue.blob) ?? .null }
}

extension Statement {
    /// Binds `values` to parameters 1…n.
    func bind(_ values: [SQLValue]) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .integer(let number): bind(index, number)
            case .text(let text): bind(index, text)
            case .blob(let bytes): bind(index, bytes)
            case .null: bindNull(index)
            }
        }
    }

    /// The text of column `index`, or `nil` when it is NULL.
    func optionalText(_ index: Int32) -> String? { isNull(index) ? nil : text(index) }
    /// The integer of column `index`, or `nil` when it is NULL.
    func optionalInt64(_ index: Int32) -> Int64? { isNull(index) ? nil : int64(index) }
    /// The bytes of column `index`, or `nil` when it is NULL.
    func optionalBytes(_ index: Int32) -> [UInt8]? { isNull(index) ? nil : bytes(index) }
}

/// One SQL connection inside a `ServerStore` transaction: runs statements from the connection's statement cache.
public struct StoreTransaction {
    let database: Database

    /// Runs `sql` with `values`, returning the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> Int {
        let statement = try database.cached(sql)
        defer { statement.reset() }
        statement.bind(values)
        try statement.run()
        return database.changes
    }

    /// Runs the query `sql` with `values` and maps every row.
    func rows<T>(_ sql: String, _ values: [SQLValue] = [], _ map: (Statement) -> T) throws(SQLiteError) -> [T] {
        let statement = try database.cached(sql)
        defer { statement.reset() }
        statement.bind(values)
        var result: [T] = []
        while try statement.step() { result.append(map(statement)) }
        return result
    }

    /// The first row of the query `sql`, mapped, or `nil` when it has none.
    func row<T>(_ sql: String, _ values: [SQLValue] = [], _ map: (Statement) -> T) throws(SQLiteError) -> T? {
        let statement = try database.cached(sql)
        defer { statement.reset() }
        statement.bind(values)
        return try statement.step() ? map(statement) : nil
    }

    /// The integer in the first column of the first row, or `nil`.
    func integer(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> Int64? {
        try row(sql, values) { $0.optionalInt64(0) } ?? nil
    }
}
