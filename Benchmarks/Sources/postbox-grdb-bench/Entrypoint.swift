import BenchmarkSupport
import Foundation
import GRDB
import PostboxBenchData

/// GRDB 7.10 on the system SQLite, doing Postbox's benchmark workloads the way a GRDB user would: a messages table
/// keyed by (peer, namespace, id) with a (peer, timestamp) index, an FTS5 table with the same tokenizer, WAL, records
/// inserted with `insert(db)` in one write transaction. With `--json` it prints one JSON object per measurement for
/// postbox-bench, which runs it and puts the ratios in its table.
@main
enum PostboxGRDBBench {
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

    struct Result: Codable {
        var name: String
        var seconds: Double
        var items: Double
        var unit: String
    }

    static func makeDatabase(_ path: String) throws -> DatabasePool {
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
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

    static func insert(_ pool: DatabasePool, _ messages: [BenchMessage]) throws {
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

    static func main() throws {
        let json = CommandLine.arguments.contains("--json")
        guard json || CommandLine.arguments.contains("--table") else {
            // `make bench` runs every *-bench; postbox-bench runs this one itself and prints the ratios.
            print("postbox-grdb-bench: run by postbox-bench (its GRDB columns); `--table` prints GRDB's figures alone")
            return
        }
        let directory = NSTemporaryDirectory() + "postbox-grdb-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var results: [Result] = []

        let messages = BenchData.messages(count: 100_000)
        let insertRun = measure("insert", items: Double(messages.count), unit: "msg", runs: 3) {
            let pool = try! makeDatabase(directory + "/insert.sqlite")
            try! insert(pool, messages)
        }
        results.append(Result(name: "insert", seconds: insertRun.seconds, items: insertRun.items, unit: "msg"))

        let pool = try makeDatabase(directory + "/data.sqlite")
        try insert(pool, messages)
        var state: UInt64 = 99
        let picks: [BenchMessage] = (0..<10_000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1
            return messages[Int(state >> 33) % messages.count]
        }
        let get = measure("get", items: Double(picks.count), unit: "get", runs: 5) {
            try! pool.read { db in
                for pick in picks {
                    blackHole(try MessageRow.fetchOne(db, key: ["peerId": pick.peer, "namespace": 0, "id": pick.id]))
                }
            }
        }
        results.append(Result(name: "get", seconds: get.seconds, items: get.items, unit: "get"))

        let anchors = Array(picks.prefix(1000))
        let range = measure("range", items: Double(anchors.count), unit: "range", runs: 5) {
            try! pool.read { db in
                for anchor in anchors {
                    let before = try MessageRow.fetchAll(
                        db,
                        sql:
                            "SELECT * FROM messages WHERE peerId = ? AND timestamp < ? ORDER BY timestamp DESC, id DESC LIMIT 25",
                        arguments: [anchor.peer, anchor.timestamp])
                    let after = try MessageRow.fetchAll(
                        db,
                        sql:
                            "SELECT * FROM messages WHERE peerId = ? AND timestamp >= ? ORDER BY timestamp ASC, id ASC LIMIT 25",
                        arguments: [anchor.peer, anchor.timestamp])
                    blackHole(before.reversed() + after)
                }
            }
        }
        results.append(Result(name: "range", seconds: range.seconds, items: range.items, unit: "range"))

        let big = try makeDatabase(directory + "/fts.sqlite")
        let million = 1_000_000
        let build = now()
        for batch in stride(from: 0, to: million, by: 100_000) {
            try insert(big, BenchData.messages(from: batch, count: 100_000))
        }
        results.append(Result(name: "build1M", seconds: now() - build, items: Double(million), unit: "msg"))
        var times: [Double] = []
        try big.read { db in
            for query in BenchData.queries(200) {
                let start = now()
                let rows = try MessageRow.fetchAll(
                    db,
                    sql: """
                        SELECT messages.* FROM messages_fts JOIN messages ON messages.rowid = messages_fts.rowid
                        WHERE messages_fts MATCH ? ORDER BY messages_fts.rowid DESC LIMIT 50
                        """, arguments: ["text:\"\(query)\"*"])
                times.append(now() - start)
                blackHole(rows)
            }
        }
        times.sort()
        results.append(Result(name: "fts", seconds: times[times.count / 2], items: 1, unit: "query"))

        if json {
            let encoder = JSONEncoder()
            for result in results { print(String(decoding: try encoder.encode(result), as: UTF8.self)) }
            return
        }
        printMachine()
        let rows = results.map {
            Comparison(
                $0.name,
                ours: BenchmarkSupport.Measurement(name: $0.name, seconds: $0.seconds, items: $0.items, unit: $0.unit),
                peer: nil)
        }
        let version = try pool.read { try String.fetchOne($0, sql: "SELECT sqlite_version()") } ?? "?"
        printTable(title: "GRDB 7.10 on system SQLite \(version)", peerName: "—", rows)
    }
}
