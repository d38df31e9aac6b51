import Foundation
import SQLite
import TestVectors
import Testing

/// Key material never reaches SQL text, an error or a printed value, and a rekey that SQLCipher could not carry out
/// is reported instead of passing silently.
@Suite struct CipherKeyTests {
    /// A key and salt no other value in these tests resembles.
    static let secretKey = Database.CipherKey(
        key: (0..<32).map { UInt8(truncatingIfNeeded: 0xa5 &+ $0 &* 37) }, salt: (0..<16).map { UInt8(0xc0 + $0) })!

    static func leakFree(_ text: String) -> Bool {
        let material = secretKey.key + secretKey.salt
        return !text.lowercased().contains(hex(Array(material.prefix(8))))
            && !text.lowercased().contains(hex(Array(secretKey.salt.prefix(8))))
    }

    @Test func cipherKeyPrintsNoKeyByte() {
        #expect(Redaction.leaks(of: Self.secretKey.key, in: Self.secretKey).isEmpty)
        #expect(Redaction.leaks(of: Self.secretKey.salt, in: Self.secretKey).isEmpty)
        #expect(Redaction.leaks(of: Self.secretKey.key, in: [Self.secretKey] as [Database.CipherKey?]).isEmpty)
        #expect(String(describing: Self.secretKey) == "CipherKey(redacted)")
    }

    /// A rekey that fails inside SQLCipher (here: the database is not encrypted, so there is nothing to rekey) throws
    /// an error whose message, context and description hold no byte of the new key.
    @Test func failedRekeyPutsNoKeyInTheError() throws {
        let database = try Database(path: temporaryPath("plain.sqlite"))
        try database.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)")
        let error = try #require(throws: SQLiteError.self) {
            try database.rekey(to: Self.secretKey, from: testKey)
        }
        for text in [error.description, error.message, error.context, String(reflecting: error)] {
            #expect(Self.leakFree(text), "\(text)")
        }
        #expect(try database.scalarInt("SELECT count(*) FROM t") == 1)
    }

    /// `sqlite3_rekey_v2` returns SQLITE_OK when it cannot take the write lock. The rekey must notice, throw, and
    /// leave the connection reading and writing under the old key, the file opening with the old key only.
    @Test func rekeyBlockedByAnotherWriterThrowsAndKeepsTheOldKey() throws {
        let path = temporaryPath("db_sqlite")
        let database = try Database(path: path)
        try database.applyKey(testKey)
        try database.applyPostboxPragmas()
        try database.execute("CREATE TABLE t (key INTEGER PRIMARY KEY, value BLOB)")
        for key in 1...200 { try database.execute("INSERT INTO t VALUES (\(key), randomblob(300))") }

        let writer = try Database(path: path)
        try writer.applyKey(testKey)
        try writer.applyPostboxPragmas()
        try writer.beginImmediate()
        try writer.execute("INSERT INTO t VALUES (1000, x'00')")
        database.setBusyTimeout(milliseconds: 50)

        let error = try #require(throws: SQLiteError.self) {
            try database.rekey(to: Self.secretKey, from: testKey)
        }
        #expect(error.isBusy, "\(error)")
        #expect(Self.leakFree(error.description))
        writer.rollback()

        // The connection still works under the old key: writes made now read back, and the file stays sound.
        database.setBusyTimeout(milliseconds: 5000)
        for key in 201...400 { try database.execute("INSERT INTO t VALUES (\(key), randomblob(300))") }
        try database.execute("UPDATE t SET value = randomblob(200) WHERE key <= 100")
        #expect(try database.scalarInt("SELECT count(*) FROM t") == 400)
        try database.checkpoint(.truncate)
        #expect(try database.integrityCheck() == ["ok"])
        #expect(throws: Never.self) { try Database.confirmKey(testKey, path: path) }
        let probe = try #require(throws: SQLiteError.self) { try Database.confirmKey(Self.secretKey, path: path) }
        #expect(probe.isNotADatabase)

        // Once the lock is free, the same rekey succeeds.
        try database.rekey(to: Self.secretKey, from: testKey)
        #expect(throws: Never.self) { try Database.confirmKey(Self.secretKey, path: path) }
        #expect(try database.scalarInt("SELECT count(*) FROM t") == 400)
    }
}
