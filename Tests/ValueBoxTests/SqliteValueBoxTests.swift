import Foundation
import SQLite
import TestVectors
import Testing
import ValueBox

func makeValueBox() throws -> SqliteValueBox {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("valuebox-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let key = Database.CipherKey(key: Array(repeating: 1, count: 32), salt: Array(repeating: 2, count: 16))
    return try SqliteValueBox(path: directory.appendingPathComponent("db_sqlite").path, key: key)
}

let binaryTable = ValueBoxTable(id: 7, keyType: .binary, compactValuesOnCreation: false)
let int64Table = ValueBoxTable(id: 8, keyType: .int64, compactValuesOnCreation: false)

func key(_ value: Int32) -> ValueBoxKey {
    var key = ValueBoxKey(length: 4)
    key.setInt32(0, value: value)
    return key
}

@Suite struct SqliteValueBoxTests {
    @Test func getSetRemoveCount() throws {
        let box = try makeValueBox()
        try box.begin()
        #expect(try box.get(binaryTable, key: key(1)) == nil)
        try box.set(binaryTable, key: key(1), value: [1])
        try box.set(binaryTable, key: key(1), value: [2])
        try box.set(binaryTable, key: key(2), value: [])
        #expect(try box.get(binaryTable, key: key(1)) == [2])
        #expect(try box.get(binaryTable, key: key(2)) == [])
        #expect(try box.exists(binaryTable, key: key(2)))
        #expect(try box.count(binaryTable) == 2)
        try box.remove(binaryTable, key: key(1), secure: true)
        #expect(try box.get(binaryTable, key: key(1)) == nil)
        try box.removeAllFromTable(binaryTable)
        #expect(try box.count(binaryTable) == 0)
        try box.commit()
    }

    @Test func rangesHaveExclusiveBoundsBothWaysAndALimit() throws {
        let box = try makeValueBox()
        try box.begin()
        for i: Int32 in 1...10 { try box.set(binaryTable, key: key(i), value: [UInt8(i)]) }
        var ascending: [Int32] = []
        try box.range(binaryTable, start: key(2), end: key(8), limit: 3) { key, _ in
            ascending.append(key.getInt32(0))
            return true
        }
        #expect(ascending == [3, 4, 5])
        var descending: [Int32] = []
        try box.range(binaryTable, start: key(8), end: key(2)) { (key: ValueBoxKey) in
            descending.append(key.getInt32(0))
            return true
        }
        #expect(descending == [7, 6, 5, 4, 3])
        var stopped: [Int32] = []
        try box.range(binaryTable, start: key(0), end: key(100)) { (key: ValueBoxKey) in
            stopped.append(key.getInt32(0))
            return stopped.count < 2
        }
        #expect(stopped == [1, 2])
        #expect(try box.count(binaryTable, start: key(2), end: key(8)) == 5)
        try box.removeRange(binaryTable, start: key(2), end: key(8))
        #expect(try box.count(binaryTable) == 5)
        try box.commit()
    }

    @Test func int64TablesOrderAsSignedIntegers() throws {
        let box = try makeValueBox()
        try box.begin()
        for value: Int64 in [-5, 3, 0, Int64.max, Int64.min + 1] {
            try box.set(int64Table, key: ValueBoxKey(int64: value), value: [1])
        }
        var seen: [Int64] = []
        try box.scan(int64Table) { key, _ in
            seen.append(key.getInt64(0))
            return true
        }
        #expect(seen == [Int64.min + 1, -5, 0, 3, Int64.max])
        try box.commit()
    }

    /// Random writes and ranges against a sorted in-memory model.
    @Test func matchesAModelUnderRandomOperations() throws {
        let box = try makeValueBox()
        var model: [ValueBoxKey: [UInt8]] = [:]
        var generator = SeededGenerator(seed: 42)
        try box.begin()
        for _ in 0..<3000 {
            let k = ValueBoxKey(
                (0..<Int.random(in: 1...3, using: &generator)).map { _ in UInt8.random(in: 0...4, using: &generator) })
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let value = [UInt8.random(in: 0...255, using: &generator)]
                try box.set(binaryTable, key: k, value: value)
                model[k] = value
            case 5..<7:
                try box.remove(binaryTable, key: k)
                model[k] = nil
            default:
                let other = ValueBoxKey(
                    (0..<Int.random(in: 0...3, using: &generator)).map { _ in UInt8.random(in: 0...4, using: &generator)
                    })
                let limit = Int.random(in: 1...10, using: &generator)
                var found: [ValueBoxKey] = []
                try box.range(binaryTable, start: k, end: other, limit: limit) { key, value in
                    #expect(model[key] == value)
                    found.append(key)
                    return true
                }
                let low = min(k, other)
                let high = max(k, other)
                var expected = model.keys.filter { $0 > low && $0 < high }.sorted()
                if other < k { expected.reverse() }
                #expect(found == Array(expected.prefix(limit)))
            }
        }
        #expect(try box.count(binaryTable) == model.count)
        try box.commit()
    }

    @Test func rollbackForgetsWritesAndCreatedTables() throws {
        let box = try makeValueBox()
        try box.begin()
        try box.set(binaryTable, key: key(1), value: [1])
        box.rollback()
        try box.begin()
        #expect(try box.get(binaryTable, key: key(1)) == nil)
        try box.set(binaryTable, key: key(1), value: [1])
        try box.commit()
        #expect(try box.get(binaryTable, key: key(1)) == [1])
    }
}

@Suite struct FullTextTests {
    let table = ValueBoxFullTextTable(id: 41)

    @Test func matchesIgnoringDiacriticsAndCase() throws {
        let box = try makeValueBox()
        try box.begin()
        let texts = ["phở bò tái", "ánh sáng", "Nguyễn Văn A", "Hello World", "photo album"]
        for (index, text) in texts.enumerated() {
            try box.fullTextSet(
                table, collectionId: "p\(index % 2)", itemId: "i\(index)", contents: text, tags: "t\(index)")
        }
        #expect(try box.fullTextMatch(table, collectionId: nil, query: "pho", limit: 10) == ["i4", "i0"])
        #expect(try box.fullTextMatch(table, collectionId: nil, query: "anh", limit: 10) == ["i1"])
        #expect(try box.fullTextMatch(table, collectionId: nil, query: "nguyen", limit: 10) == ["i2"])
        #expect(try box.fullTextMatch(table, collectionId: nil, query: "PHỞ BÒ", limit: 10) == ["i0"])
        #expect(try box.fullTextMatch(table, collectionId: "p0", query: "pho", limit: 10) == ["i4", "i0"])
        #expect(try box.fullTextMatch(table, collectionId: "p1", query: "pho", limit: 10) == [])
        #expect(try box.fullTextMatch(table, collectionId: nil, query: "pho", tags: ["t0"], limit: 10) == ["i0"])
        #expect(try box.fullTextMatch(table, collectionId: nil, query: "pho", limit: 1) == ["i4"])
        #expect(try box.fullTextMatch(table, collectionId: nil, query: "  ", limit: 10) == [])
        // Quotes and FTS5 operators in the query are literal text, never syntax.
        #expect(try box.fullTextMatch(table, collectionId: nil, query: "\"hello\" OR NEAR(", limit: 10) == [])
        try box.fullTextRemove(table, itemId: "i0")
        #expect(try box.fullTextMatch(table, collectionId: nil, query: "pho", limit: 10) == ["i4"])
        try box.commit()
    }

    @Test func rowsNumberedByTheCallerAreFoundByRowIdAndReplaced() throws {
        let box = try makeValueBox()
        let history = ValueBoxTable(id: 7, keyType: .binary, compactValuesOnCreation: false)
        try box.begin()
        let (first, firstTaken) = try box.insertReturningRowId(history, key: ValueBoxKey([1]), value: [10])
        let (second, secondTaken) = try box.insertReturningRowId(history, key: ValueBoxKey([2]), value: [20])
        #expect(!firstTaken && !secondTaken)
        // Inserting under a taken key rewrites that row in place: same rowid, new value, and it says so.
        let again = try box.insertReturningRowId(history, key: ValueBoxKey([2]), value: [21])
        #expect(again.rowId == second && again.keyWasTaken)
        #expect(try box.get(history, rowId: second)?.value == [21])
        try box.set(history, key: ValueBoxKey([2]), value: [20])
        // A rewrite through `set` keeps the row; `rowId(key:)` finds it.
        try box.set(history, key: ValueBoxKey([1]), value: [11])
        #expect(try box.rowId(history, key: ValueBoxKey([1])) == first)
        #expect(try box.rowId(history, key: ValueBoxKey([3])) == nil)
        #expect(first != second)
        #expect(try box.get(history, rowId: first)?.key == ValueBoxKey([1]))
        #expect(try box.get(history, rowId: first)?.value == [11])
        #expect(try box.get(history, rowId: 9_999) == nil)
        var scanned: [Int64] = []
        try box.scanWithRowIds(history) { rowId, _, _ in
            scanned.append(rowId)
            return true
        }
        #expect(scanned == [first, second])

        try box.fullTextSet(table, rowId: first, collectionId: "p1", itemId: "i1", contents: "phở bò", tags: "")
        try box.fullTextSet(table, rowId: second, collectionId: "p1", itemId: "i2", contents: "phở gà", tags: "")
        #expect(try box.fullTextMatchRowIds(table, collectionId: nil, query: "pho", limit: 10) == [second, first])
        #expect(try box.fullTextMatchRowIds(table, collectionId: nil, query: "pho", limit: 1) == [second])
        // Setting a rowid that is taken replaces that row: its old words are gone.
        try box.fullTextSet(table, rowId: first, collectionId: "p1", itemId: "i1", contents: "bánh mì", tags: "")
        #expect(try box.fullTextMatchRowIds(table, collectionId: nil, query: "bo", limit: 10) == [])
        #expect(try box.fullTextMatchRowIds(table, collectionId: nil, query: "banh", limit: 10) == [first])
        try box.fullTextRemoveAll(table)
        #expect(try box.fullTextMatchRowIds(table, collectionId: nil, query: "pho", limit: 10) == [])
        try box.commit()
    }

    /// A table that does not index item ids: its rows are removed by rowid (or, by item id, through a scan), searches
    /// by contents, collection and tags still work, and dropping it lets it be made again with other columns.
    @Test func aTableWithoutItemIdTermsRemovesByRowId() throws {
        let box = try makeValueBox()
        let rowKeyed = ValueBoxFullTextTable(id: 43, indexesItemIds: false)
        try box.begin()
        for (rowId, text) in [(Int64(1), "phở bò"), (2, "phở gà"), (3, "bánh mì")] {
            try box.fullTextSet(
                rowKeyed, rowId: rowId, collectionId: "p\(rowId % 2)", itemId: "i\(rowId)", contents: text, tags: "t1")
        }
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "pho", limit: 10) == [2, 1])
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: "p1", query: "pho", limit: 10) == [1])
        #expect(
            try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "pho", tags: ["t1"], limit: 10) == [2, 1])
        // An item id is no term: searching for it finds nothing.
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "i1", limit: 10) == [])
        try box.fullTextRemove(rowKeyed, rowId: 2)
        try box.fullTextRemove(rowKeyed, rowId: 99)
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "pho", limit: 10) == [1])
        try box.fullTextRemove(rowKeyed, itemId: "i1")
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "pho", limit: 10) == [])
        #expect(try box.fullTextMatch(rowKeyed, collectionId: nil, query: "banh", limit: 10) == ["i3"])
        let schema = try box.database.textColumn("SELECT sql FROM sqlite_master WHERE name = 'ft43'").first
        #expect(schema?.contains("itemId UNINDEXED") == true)
        try box.fullTextDrop(rowKeyed)
        #expect(try box.database.textColumn("SELECT sql FROM sqlite_master WHERE name = 'ft43'").isEmpty)
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "banh", limit: 10) == [])
        try box.fullTextSet(rowKeyed, rowId: 5, collectionId: "p1", itemId: "i5", contents: "cà phê", tags: "")
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "ca phe", limit: 10) == [5])
        try box.commit()
    }
}
