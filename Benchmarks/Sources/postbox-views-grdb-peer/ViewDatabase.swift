import Foundation
import GRDB
import PostboxBenchData

/// A message row, as in postbox-grdb-bench: keyed by (peer, namespace, id), indexed by (peer, timestamp, id).
struct MessageRow: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "messages"
    var peerId: Int64
    var namespace: Int32
    var id: Int32
    var timestamp: Int32
    var authorId: Int64
    var flags: Int32
    var text: String
}

/// A message of a history view: the row and its author's name (what a chat screen shows).
struct HistoryEntry: Decodable, Equatable, FetchableRecord {
    var peerId: Int64
    var namespace: Int32
    var id: Int32
    var timestamp: Int32
    var authorId: Int64
    var flags: Int32
    var text: String
    var authorName: String?
}

/// An entry of the chat list: the chat row, the peer's name and the top message's text.
struct ChatListEntry: Decodable, Equatable, FetchableRecord {
    var peerId: Int64
    var pinningIndex: Int32?
    var topTimestamp: Int32
    var topId: Int32
    var unreadCount: Int32
    var name: String
    var topText: String?
}

/// One chat-list row, kept in step with `messages` by the same write transaction, the way a GRDB app keeps a
/// denormalized chat list: the top message's timestamp and id, the unread count, the pinning position.
struct ChatRow: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "chats"
    var peerId: Int64
    var pinningIndex: Int32?
    var topTimestamp: Int32
    var topId: Int32
    var unreadCount: Int32
}

/// The benchmark's GRDB database: a `DatabasePool` (WAL, `synchronous = NORMAL`, Postbox's page cache) with the view data set stored, and
/// the write each iteration performs.
struct ViewDatabase {
    let pool: DatabasePool

    /// Creates the schema at `path`, stores `ViewBenchData`'s messages and the chat rows derived from them, then
    /// checkpoints.
    init(path: String, cacheKiB: Int) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE messages (peerId INTEGER NOT NULL, namespace INTEGER NOT NULL, id INTEGER NOT NULL,
                        timestamp INTEGER NOT NULL, authorId INTEGER NOT NULL, flags INTEGER NOT NULL, text TEXT NOT NULL,
                        UNIQUE (peerId, namespace, id));
                    CREATE INDEX messages_peer_timestamp ON messages (peerId, timestamp, id);
                    CREATE VIRTUAL TABLE messages_fts USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
                    CREATE TABLE peers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE chats (peerId INTEGER PRIMARY KEY, pinningIndex INTEGER,
                        topTimestamp INTEGER NOT NULL, topId INTEGER NOT NULL, unreadCount INTEGER NOT NULL);
                    CREATE INDEX chats_order ON chats (pinningIndex, topTimestamp, topId);
                    """)
        }
        let messages = ViewBenchData.initialMessages()
        var tops: [Int64: (timestamp: Int32, id: Int32, count: Int32)] = [:]
        try pool.write { db in
            let fts = try db.cachedStatement(sql: "INSERT INTO messages_fts (rowid, text) VALUES (?, ?)")
            for message in messages {
                try Self.row(message).insert(db)
                try fts.execute(arguments: [db.lastInsertedRowID, message.text])
                let top = tops[message.peer]
                if top.map({ message.timestamp > $0.timestamp }) ?? true {
                    tops[message.peer] = (message.timestamp, message.id, (top?.count ?? 0) + 1)
                }
            }
            let peers = try db.cachedStatement(sql: "INSERT INTO peers (id, name) VALUES (?, ?)")
            for peer in 1...Int64(ViewBenchData.chatCount) {
                try peers.execute(arguments: [peer, ViewBenchData.peerName(peer)])
            }
            for (peer, top) in tops {
                let pinningIndex = ViewBenchData.pinnedPeers.firstIndex(of: peer).map(Int32.init)
                // Every third chat has its messages unread.
                try ChatRow(
                    peerId: peer, pinningIndex: pinningIndex, topTimestamp: top.timestamp, topId: top.id,
                    unreadCount: peer % 3 == 0 ? top.count : 0
                ).insert(db)
            }
        }
        // Start from an empty WAL, as an app opening its database would, not from the bulk load's.
        _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    static func row(_ message: BenchMessage) -> MessageRow {
        MessageRow(
            peerId: message.peer, namespace: 0, id: message.id, timestamp: message.timestamp,
            authorId: message.author, flags: 0, text: message.text)
    }

    /// One transaction: the message, its full-text row, and its chat's top message and unread count.
    func write(_ message: BenchMessage) throws {
        try pool.write { db in
            try Self.row(message).insert(db)
            try db.cachedStatement(sql: "INSERT INTO messages_fts (rowid, text) VALUES (?, ?)")
                .execute(arguments: [db.lastInsertedRowID, message.text])
            try db.cachedStatement(
                sql: "UPDATE chats SET topTimestamp = ?, topId = ?, unreadCount = unreadCount + 1 WHERE peerId = ?"
            ).execute(arguments: [message.timestamp, message.id, message.peer])
        }
    }

    /// The newest `historyWindow` messages of `peer` with their authors' names, newest first (the chat screen's
    /// initial window).
    static func history(_ db: Database, peer: Int64) throws -> [HistoryEntry] {
        try HistoryEntry.fetchAll(db, sql: historyQuery, arguments: [peer, ViewBenchData.historyWindow])
    }

    static let historyQuery = """
        SELECT messages.*, peers.name AS authorName FROM messages LEFT JOIN peers ON peers.id = messages.authorId
        WHERE messages.peerId = ? ORDER BY messages.timestamp DESC, messages.id DESC LIMIT ?
        """

    /// The top of the chat list with names and top-message texts: pinned chats in pinning order, then the others
    /// by top message, newest first. Two queries so both walk the `chats_order` index instead of sorting 10,000 rows.
    static func chatList(_ db: Database) throws -> [ChatListEntry] {
        let pinned = try ChatListEntry.fetchAll(
            db, sql: chatListQuery(pinned: true), arguments: [ViewBenchData.chatListWindow])
        let others = try ChatListEntry.fetchAll(
            db, sql: chatListQuery(pinned: false), arguments: [ViewBenchData.chatListWindow - pinned.count])
        return pinned + others
    }

    static func chatListQuery(pinned: Bool) -> String {
        let filter =
            pinned
            ? "chats.pinningIndex IS NOT NULL ORDER BY chats.pinningIndex"
            : "chats.pinningIndex IS NULL ORDER BY chats.topTimestamp DESC, chats.topId DESC"
        return """
            SELECT chats.*, peers.name AS name, messages.text AS topText FROM chats
            JOIN peers ON peers.id = chats.peerId
            LEFT JOIN messages ON messages.peerId = chats.peerId AND messages.namespace = 0 AND messages.id = chats.topId
            WHERE \(filter) LIMIT ?
            """
    }

    /// SQLite's plan for each view query, to show they use the indexes.
    func queryPlans() throws -> [String] {
        try pool.read { db in
            let queries: [(String, StatementArguments)] = [
                (Self.historyQuery, [1, ViewBenchData.historyWindow]),
                (Self.chatListQuery(pinned: true), [ViewBenchData.chatListWindow]),
                (Self.chatListQuery(pinned: false), [ViewBenchData.chatListWindow]),
            ]
            return try queries.map { query, arguments in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + query, arguments: arguments)
                    .map { $0["detail"] as String }.joined(separator: "; ")
            }
        }
    }
}
