import Foundation
import SQLite
import TestVectors
import Testing

/// A fresh directory for one test.
func temporaryPath(_ name: String) -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent(name).path
}

let testKey = Database.CipherKey(key: Array(0..<32), salt: Array(100..<116))!

/// Runs a command-line tool and returns its exit status, stdout and stderr.
func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    let result = try ProcessRunner.run(URL(fileURLWithPath: tool), arguments)
    return (result.status, result.output, result.errorOutput)
}

@Suite struct DatabaseTests {
    func makeEncrypted() throws -> Database {
        let database = try Database(path: temporaryPath("db_sqlite"))
        try database.applyKey(testKey)
        try database.applyPostboxPragmas()
        try database.execute("CREATE TABLE t (key INTEGER PRIMARY KEY, value BLOB)")
        return database
    }

    @Test func isSQLCipher4WithFTS5Diacritics() throws {
        let database = try makeEncrypted()
        let version = try #require(try database.cipherVersion())
        #expect(version.hasPrefix("4."))
        try database.execute(
            "CREATE VIRTUAL TABLE f USING fts5(c, tokenize = 'unicode61 remove_diacritics 2'); "
                + "INSERT INTO f VALUES ('phở bò')")
        #expect(try database.scalarInt("SELECT count(*) FROM f WHERE f MATCH 'pho'") == 1)
    }

    @Test func bindsAndReadsValues() throws {
        let database = try makeEncrypted()
        let insert = try database.cached("INSERT INTO t (key, value) VALUES (?, ?)")
        for key in Int64(1)...5 {
            insert.bind(1, key)
            insert.bind(2, [UInt8](repeating: UInt8(key), count: Int(key)))
            try insert.run()
        }
        // Zero-length blobs stay blobs, not NULL.
        insert.bind(1, 6)
        insert.bind(2, [])
        try insert.run()
        let select = try database.cached("SELECT value FROM t WHERE key = ?")
        select.bind(1, 3)
        #expect(try select.step())
        #expect(select.bytes(0) == [3, 3, 3])
        select.reset()
        select.bind(1, 6)
        #expect(try select.step())
        #expect(!select.isNull(0))
        #expect(select.bytes(0) == [])
        select.reset()
        #expect(try database.cached("SELECT value FROM t WHERE key = ?") === select)
    }

    @Test func errorsCarryCodeAndMessage() throws {
        let database = try makeEncrypted()
        let error = try #require(throws: SQLiteError.self) { try database.execute("SELEKT 1") }
        #expect(error.code == 1)
        #expect(error.message.contains("syntax error"))
        try database.execute("INSERT INTO t VALUES (1, x'00')")
        let constraint = try #require(throws: SQLiteError.self) {
            try database.execute("INSERT INTO t VALUES (1, x'00')")
        }
        #expect(constraint.primaryCode == 19)
    }

    @Test func rollbackUndoesWrites() throws {
        let database = try makeEncrypted()
        try database.beginImmediate()
        try database.execute("INSERT INTO t VALUES (1, x'01')")
        database.rollback()
        #expect(try database.scalarInt("SELECT count(*) FROM t") == 0)
        #expect(!database.isInTransaction)
    }

    @Test func wrongKeyIsNotADatabaseAndPlainSQLiteCannotReadTheFile() throws {
        let database = try makeEncrypted()
        try database.execute("INSERT INTO t VALUES (1, x'0102')")
        try database.checkpoint(.truncate)
        let path = database.path
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let other = try Database(path: path)
        let wrong = Database.CipherKey(key: Array(repeating: 7, count: 32), salt: testKey.salt)!
        let error = try #require(throws: SQLiteError.self) { try other.applyKey(wrong) }
        #expect(error.isNotADatabase)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        // The plain sqlite3 tool cannot read it. The 32-byte plaintext header (kept for iOS) keeps SQLite's magic
        // string readable, so sqlite3 gets past the magic check and fails on the encrypted schema format number.
        let plain = try run("/usr/bin/sqlite3", [path, "SELECT count(*) FROM sqlite_master"])
        #expect(plain.status != 0)
        #expect(
            plain.error.contains("not a database") || plain.error.contains("unsupported file format"),
            "sqlite3 exited \(plain.status) and printed \(plain.error.debugDescription)")
        #expect(!plain.output.contains("1"))

        // The sqlcipher tool opens it with the key.
        let hex = (testKey.key + testKey.salt).map { String(format: "%02x", $0) }.joined()
        let cli = try run(
            "/usr/bin/sqlcipher",
            [path, "PRAGMA key = \"x'\(hex)'\"; PRAGMA cipher_plaintext_header_size = 32; SELECT hex(value) FROM t;"])
        #expect(cli.status == 0)
        #expect(cli.output.contains("0102"))
    }

    @Test func rekeyChangesTheKey() throws {
        let database = try makeEncrypted()
        try database.execute("INSERT INTO t VALUES (1, x'05')")
        let newKey = Database.CipherKey(key: Array(repeating: 9, count: 32), salt: Array(repeating: 3, count: 16))!
        try database.rekey(to: newKey, from: testKey)
        let reopened = try Database(path: database.path)
        try reopened.applyKey(newKey)
        #expect(try reopened.scalarInt("SELECT count(*) FROM t") == 1)
        let old = try Database(path: database.path)
        #expect(throws: SQLiteError.self) { try old.applyKey(testKey) }
    }

    @Test func integrityCheckReportsOk() throws {
        #expect(try makeEncrypted().integrityCheck() == ["ok"])
    }
}
