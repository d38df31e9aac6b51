import BenchmarkSupport
import Foundation
import GRDB
import PostboxBenchData

/// The GRDB side of each postbox-bench workload, one command at a time; every answer holds the seconds this
/// process's clock measured for the work alone and an output text describing what it produced (rows written, a
/// checksum of the messages found), which postbox-bench compares with Postbox's.
final class GRDBServer {
    struct BadCommand: Error { let line: String }

    struct MessageRow: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "messages"
        var peerId: Int64
        var namespace: Int32
        var id: Int32
        var timestamp: Int32
        var authorId: Int64
        var flags: Int32
        var text: String
    }

    let directory: String
    let cacheKiB: Int
    /// The 100,000-message database of the get and range workloads (`load`).
    private var data: DatabasePool?
    private var messages: [BenchMessage] = []
    /// The million-message database of the search workloads (the last `build`).
    private var big: DatabasePool?
    private var builds = 0
    private var inserts = 0

    init(directory: String, cacheKiB: Int) {
        self.directory = directory
        self.cacheKiB = cacheKiB
    }

    var configuration: Configuration {
        var configuration = Configuration()
        let cacheKiB = cacheKiB
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)")
        }
        return configuration
    }

    static func remove(_ path: String) {
        for file in PageCache.sqliteFiles(path) { try? FileManager.default.removeItem(atPath: file) }
    }

    func makeDatabase(_ path: String) throws -> DatabasePool {
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE messages (peerId INTEGER NOT NULL, namespace INTEGER NOT NULL, id INTEGER NOT NULL,
                        timestamp INTEGER NOT NULL, authorId INTEGER NOT NULL, flags INTEGER NOT NULL, text TEXT NOT NULL,
                        UNIQUE (peerId, namespace, id));
                    CREATE INDEX messages_peer_timestamp ON messages (peerId, timestamp, id);
                    CREATE VIRTUAL TABLE messages_fts USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
                    """)
        }
        return pool
    }

    func insert(_ pool: DatabasePool, _ messages: [BenchMessage]) throws {
        try pool.write { db in
            let fts = try db.cachedStatement(sql: "INSERT INTO messages_fts (rowid, text) VALUES (?, ?)")
            for message in messages {
                let row = MessageRow(
                    peerId: message.peer, namespace: 0, id: message.id, timestamp: message.timestamp,
                    authorId: message.author, flags: 0, text: message.text)
                try row.insert(db)
                try fts.execute(arguments: [db.lastInsertedRowID, message.text])
            }
        }
    }

    /// "messages N, text rows M": what a write workload left in the database (counted after the timing).
    func rowCounts(_ pool: DatabasePool) throws -> String {
        try pool.read { db in
            let messages = try Int.fetchOne(db, sql: "SELECT count(*) FROM messages") ?? -1
            let text = try Int.fetchOne(db, sql: "SELECT count(*) FROM messages_fts") ?? -1
            return "messages \(messages), text rows \(text)"
        }
    }

    func handle(_ command: [String: Any]) throws -> [String: Any] {
        switch command["op"] as? String {
        case "insert":
            // A fresh database, timed from open to commit like Postbox's.
            inserts += 1
            let path = directory + "/insert-\(inserts).sqlite"
            let messages = BenchData.messages(count: command["count"] as? Int ?? 100_000)
            let start = now()
            let pool = try makeDatabase(path)
            try insert(pool, messages)
            let seconds = now() - start
            let output = try rowCounts(pool)
            Self.remove(path)
            return ["seconds": seconds, "output": output]
        case "load":
            messages = BenchData.messages(count: command["count"] as? Int ?? 100_000)
            let pool = try makeDatabase(directory + "/data.sqlite")
            try insert(pool, messages)
            data = pool
            return ["seconds": 0.0, "output": try rowCounts(pool)]
        case "get":
            return try timedRead(data) { db in try self.get(db) }
        case "range":
            return try timedRead(data) { db in try self.range(db) }
        case "build":
            // A fresh million-message database in transactions of 100,000, kept for the search workloads.
            big = nil
            if builds > 0 { Self.remove(directory + "/fts-\(builds).sqlite") }
            builds += 1
            let total = command["count"] as? Int ?? 1_000_000
            let start = now()
            let pool = try makeDatabase(directory + "/fts-\(builds).sqlite")
            for batch in stride(from: 0, to: total, by: 100_000) {
                try insert(pool, BenchData.messages(from: batch, count: min(100_000, total - batch)))
            }
            let seconds = now() - start
            _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            big = pool
            return ["seconds": seconds, "output": try rowCounts(pool)]
        case "fts":
            guard let queries = command["queries"] as? [String] else { throw BadCommand(line: "\(command)") }
            var answer: [String: Any] = [:]
            if command["cold"] as? Bool == true {
                // The same as Postbox's side: a new connection, the schema read, then the files' pages dropped.
                let path = directory + "/fts-\(builds).sqlite"
                big = nil
                let pool = try DatabasePool(path: path, configuration: configuration)
                _ = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
                big = pool
                let left = PageCache.drop(PageCache.sqliteFiles(path))
                answer["resident"] = left.resident
                answer["pages"] = left.total
            }
            let result = try timedRead(big) { db in try self.search(db, queries) }
            return result.merging(answer) { first, _ in first }
        default:
            throw BadCommand(line: "\(command)")
        }
    }

    func timedRead(_ pool: DatabasePool?, _ body: @escaping (Database) throws -> FoundChecksum) throws -> [String: Any]
    {
        guard let pool else { throw BadCommand(line: "no database loaded") }
        let start = now()
        let found = try pool.read(body)
        return ["seconds": now() - start, "output": found.text]
    }

    func get(_ db: Database) throws -> FoundChecksum {
        var found = FoundChecksum()
        for pick in BenchData.picks(messages) {
            if let row = try MessageRow.fetchOne(db, key: ["peerId": pick.peer, "namespace": 0, "id": pick.id]) {
                found.add(peer: row.peerId, id: row.id, textLength: row.text.utf8.count)
            }
        }
        return found
    }

    static let earlier =
        "SELECT * FROM messages WHERE peerId = ? AND timestamp < ? ORDER BY timestamp DESC, id DESC LIMIT ?"
    static let later =
        "SELECT * FROM messages WHERE peerId = ? AND timestamp >= ? ORDER BY timestamp ASC, id ASC LIMIT ?"

    /// 50 messages around each of 1,000 anchors, split as Postbox's `messagesAround` splits them: the anchor, 24
    /// before it and 25 after, more on one side when the other runs out.
    func range(_ db: Database) throws -> FoundChecksum {
        var found = FoundChecksum()
        for anchor in BenchData.picks(messages).prefix(1000) {
            let arguments = { (sql: String, limit: Int) in
                try MessageRow.fetchAll(db, sql: sql, arguments: [anchor.peer, anchor.timestamp, limit])
            }
            var before = try arguments(Self.earlier, 24)
            var after = try arguments(Self.later, 26)
            if after.count < 26 && before.count == 24 {
                before = try arguments(Self.earlier, 50 - after.count)
            } else if before.count < 24 && after.count == 26 {
                after = try arguments(Self.later, 50 - before.count)
            }
            for row in before.reversed() + after {
                found.add(peer: row.peerId, id: row.id, textLength: row.text.utf8.count)
            }
        }
        return found
    }

    /// Each query's newest 50 messages, joined from the text index's rowids to the message rows.
    func search(_ db: Database, _ queries: [String]) throws -> FoundChecksum {
        var found = FoundChecksum()
        let statement = try db.cachedStatement(
            sql: """
                SELECT messages.* FROM messages_fts JOIN messages ON messages.rowid = messages_fts.rowid
                WHERE messages_fts MATCH ? ORDER BY messages_fts.rowid DESC LIMIT 50
                """)
        for query in queries {
            for row in try MessageRow.fetchAll(statement, arguments: ["text:\"\(query)\"*"]) {
                found.add(peer: row.peerId, id: row.id, textLength: row.text.utf8.count)
            }
        }
        return found
    }
}
