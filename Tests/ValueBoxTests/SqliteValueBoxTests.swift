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

        let numbered = ValueBoxFullTextTable(id: 42, rows: .byRowId)
        try box.fullTextSet(numbered, rowId: first, collectionId: "p1", contents: "phở bò", tags: "")
        try box.fullTextSet(numbered, rowId: second, collectionId: "p1", contents: "phở gà", tags: "")
        #expect(try box.fullTextMatchRowIds(numbered, collectionId: nil, query: "pho", limit: 10) == [second, first])
        #expect(try box.fullTextMatchRowIds(numbered, collectionId: nil, query: "pho", limit: 1) == [second])
        // Setting a rowid that is taken replaces that row: its old words are gone, and the table holds one row there.
        try box.fullTextSet(numbered, rowId: first, collectionId: "p1", contents: "bánh mì", tags: "")
        #expect(try box.fullTextMatchRowIds(numbered, collectionId: nil, query: "bo", limit: 10) == [])
        #expect(try box.fullTextMatchRowIds(numbered, collectionId: nil, query: "banh", limit: 10) == [first])
        #expect(try box.database.textColumn("SELECT count(*) FROM ft42") == ["2"])
        try box.fullTextRemove(numbered, rowId: first)
        #expect(try box.fullTextMatchRowIds(numbered, collectionId: nil, query: "banh", limit: 10) == [])
        #expect(try box.fullTextMatchRowIds(numbered, collectionId: nil, query: "pho", limit: 10) == [second])
        try box.fullTextRemoveAll(numbered)
        #expect(try box.fullTextMatchRowIds(numbered, collectionId: nil, query: "pho", limit: 10) == [])
        try box.commit()
    }

    /// A `.byRowId` table `id` with rows 1–3 ("phở 1"…) committed by one connection, and a second connection to the
    /// same file that has not touched it.
    static func threeRowsAndASecondConnection(table id: Int32) throws -> (ValueBoxFullTextTable, SqliteValueBox) {
        let numbered = ValueBoxFullTextTable(id: id, rows: .byRowId)
        let first = try makeValueBox()
        try first.begin()
        for rowId in Int64(1)...3 {
            try first.fullTextSet(numbered, rowId: rowId, collectionId: "p1", contents: "phở \(rowId)", tags: "")
        }
        try first.commit()
        let key = Database.CipherKey(key: Array(repeating: 1, count: 32), salt: Array(repeating: 2, count: 16))
        return (numbered, try SqliteValueBox(path: first.path, key: key))
    }

    /// A rowid the table held before this connection opened it is replaced too, not indexed a second time: the
    /// highest rowid is read from the file, so only rowids above it are inserted without looking for an old row.
    @Test func aRowIdTakenBeforeTheConnectionOpenedIsReplaced() throws {
        let (numbered, second) = try Self.threeRowsAndASecondConnection(table: 44)
        try second.begin()
        try second.fullTextSet(numbered, rowId: 2, collectionId: "p1", contents: "bánh mì", tags: "")
        try second.fullTextSet(numbered, rowId: 4, collectionId: "p1", contents: "phở 4", tags: "")
        try second.fullTextSet(numbered, rowId: 4, collectionId: "p1", contents: "cà phê", tags: "")
        #expect(try second.fullTextMatchRowIds(numbered, collectionId: nil, query: "pho", limit: 10) == [3, 1])
        #expect(try second.fullTextMatchRowIds(numbered, collectionId: nil, query: "banh", limit: 10) == [2])
        #expect(try second.fullTextMatchRowIds(numbered, collectionId: nil, query: "ca phe", limit: 10) == [4])
        #expect(try second.database.textColumn("SELECT count(*) FROM ft44") == ["4"])
        try second.commit()
    }

    /// Rows another connection added are replaced too: its commit (`PRAGMA data_version`) makes this connection read
    /// the table's highest rowid again.
    @Test func aRowAnotherConnectionAddedIsReplacedNotDoubled() throws {
        let (numbered, second) = try Self.threeRowsAndASecondConnection(table: 47)
        let key = Database.CipherKey(key: Array(repeating: 1, count: 32), salt: Array(repeating: 2, count: 16))
        let third = try SqliteValueBox(path: second.path, key: key)
        // The second connection learns the highest rowid (3) over two transactions.
        for _ in 0..<2 {
            try second.begin()
            try second.fullTextSet(numbered, rowId: 1, collectionId: "p1", contents: "phở 1", tags: "")
            try second.commit()
        }
        try third.begin()
        try third.fullTextSet(numbered, rowId: 5, collectionId: "p1", contents: "phở 5", tags: "")
        try third.commit()
        try second.begin()
        try second.fullTextSet(numbered, rowId: 5, collectionId: "p1", contents: "bánh mì", tags: "")
        #expect(try second.fullTextMatchRowIds(numbered, collectionId: nil, query: "pho", limit: 10) == [3, 2, 1])
        #expect(try second.database.textColumn("SELECT count(*) FROM ft47") == ["4"])
        try second.commit()
    }

    /// A rowid the table held again after a rollback is replaced, not indexed a second time: the highest rowid read
    /// inside the rolled-back transaction (after deleting the top rows) is forgotten with it.
    @Test func aRowRestoredByARollbackIsReplacedNotDoubled() throws {
        let (numbered, other) = try Self.threeRowsAndASecondConnection(table: 45)
        // Two transactions on another table first, so the connection has seen the file's data version and has no
        // other reason to forget what it read.
        let warm = ValueBoxFullTextTable(id: 46, rows: .byRowId)
        for rowId in Int64(1)...2 {
            try other.begin()
            try other.fullTextSet(warm, rowId: rowId, collectionId: "p1", contents: "trà", tags: "")
            try other.commit()
        }
        // The table's highest rowid is first read after its top row was deleted, and that transaction rolls back.
        try other.begin()
        try other.fullTextRemove(numbered, rowId: 3)
        try other.fullTextSet(numbered, rowId: 1, collectionId: "p1", contents: "phở 1", tags: "")
        other.rollback()
        try other.begin()
        try other.fullTextSet(numbered, rowId: 3, collectionId: "p1", contents: "bánh mì", tags: "")
        #expect(try other.fullTextMatchRowIds(numbered, collectionId: nil, query: "pho", limit: 10) == [2, 1])
        #expect(try other.database.textColumn("SELECT count(*) FROM ft45") == ["3"])
        // Clearing a rowid the table holds removes its row; one above every row costs nothing and changes nothing.
        try other.fullTextClear(numbered, rowId: 2)
        try other.fullTextClear(numbered, rowId: 99)
        #expect(try other.fullTextMatchRowIds(numbered, collectionId: nil, query: "pho", limit: 10) == [1])
        #expect(try other.database.textColumn("SELECT count(*) FROM ft45") == ["2"])
        try other.commit()
    }

    /// A contentless table numbered by the caller: searches by contents, collection and tags work; it keeps neither
    /// the text nor an item id; rows go by rowid, and a collection's rows without a record go together; dropping it
    /// lets it be made again.
    @Test func aContentlessTableFindsItsRowsByRowIdAlone() throws {
        let box = try makeValueBox()
        let rowKeyed = ValueBoxFullTextTable(id: 43, rows: .byRowId)
        let records = ValueBoxTable(id: 8, keyType: .binary, compactValuesOnCreation: false)
        try box.begin()
        var rowIds: [Int64] = []
        for key in UInt8(1)...4 {
            rowIds.append(try box.insertReturningRowId(records, key: ValueBoxKey([key]), value: [key]).rowId)
        }
        for (rowId, text) in zip(rowIds, ["phở bò", "phở gà", "bánh mì", "phở cuốn"]) {
            try box.fullTextSet(rowKeyed, rowId: rowId, collectionId: "p\(rowId % 2)", contents: text, tags: "t1")
        }
        let (one, two, three, four) = (rowIds[0], rowIds[1], rowIds[2], rowIds[3])
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "pho", limit: 10) == [four, two, one])
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: "p\(one % 2)", query: "pho", limit: 10) == [one])
        #expect(
            try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "pho", tags: ["t1"], limit: 10)
                == [four, two, one])
        // Nothing but the index: no copy of the text, no item ids.
        let schema = try box.database.textColumn("SELECT sql FROM sqlite_master WHERE name = 'ft43'").first
        #expect(schema?.contains("content=''") == true && schema?.contains("itemId") == false)
        #expect(try box.database.textColumn("SELECT count(*) FROM sqlite_master WHERE name = 'ft43_content'") == ["0"])
        try box.fullTextRemove(rowKeyed, rowId: two)
        try box.fullTextRemove(rowKeyed, rowId: 99)
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "pho", limit: 10) == [four, one])
        try box.fullTextRemove(rowKeyed, itemId: "i1")
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "pho", limit: 10) == [four, one])
        // Records one and four go without their text rows (a damaged file): the collection of four loses its rows
        // without records, and only those.
        try box.remove(records, key: ValueBoxKey([1]), secure: false)
        try box.remove(records, key: ValueBoxKey([4]), secure: false)
        try box.fullTextRemove(rowKeyed, collectionId: "p\(four % 2)", rowsMissingFrom: records)
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "pho", limit: 10) == [one])
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "banh", limit: 10) == [three])
        try box.fullTextDrop(rowKeyed)
        #expect(try box.database.textColumn("SELECT sql FROM sqlite_master WHERE name = 'ft43'").isEmpty)
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "banh", limit: 10) == [])
        try box.fullTextSet(rowKeyed, rowId: 5, collectionId: "p1", contents: "cà phê", tags: "")
        #expect(try box.fullTextMatchRowIds(rowKeyed, collectionId: nil, query: "ca phe", limit: 10) == [5])
        try box.commit()
    }
}
