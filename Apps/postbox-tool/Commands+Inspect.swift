import ArgumentParser
import CommandLineOutput
import Foundation
import Postbox
import PostboxJSONL

/// Prints `value` as pretty JSON.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Counts of messages, chats and peers; schema version.")
    @OptionGroup var account: AccountOptions
    @Flag(help: "Print JSON.") var json = false

    struct Output: Codable {
        var schemaVersion: Int32?
        var transactionStateVersion: Int64
        var messages: Int64
        var peers: Int64
        var chats: Int
        var unread: Int32
        var unsent: Int
        var databaseBytes: Int64
    }

    func run() throws {
        try runTool {
            let postbox = try account.open()
            let counts = Dictionary(uniqueKeysWithValues: try postbox.tableStatistics().map { ($0.name, $0.rows) })
            let (chats, unread, unsent) = try postbox.transactionSync { tx -> (Int, Int32, Int) in
                let entries = try tx.chatListEntries(before: nil, count: Int.max)
                let unread = try entries.reduce(Int32(0)) {
                    $0 + (try tx.getCombinedPeerReadState($1.messageIndex.id.peerId)?.count ?? 0)
                }
                return (entries.count, unread, try tx.unsentMessageIds().count)
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: postbox.databasePath)[.size] as? Int64) ?? 0
            let output = Output(
                schemaVersion: try postbox.schemaVersion(), transactionStateVersion: postbox.transactionStateVersion,
                messages: counts["t4"] ?? 0, peers: counts["t2"] ?? 0, chats: chats, unread: unread, unsent: unsent,
                databaseBytes: size)
            if json { return try printJSON(output) }
            print("schema version:     \(output.schemaVersion.map(String.init) ?? "none")")
            print("transaction state:  \(output.transactionStateVersion)")
            print("messages:           \(output.messages)")
            print("peers:              \(output.peers)")
            print("chats:              \(output.chats)")
            print("unread:             \(output.unread)")
            print("unsent:             \(output.unsent)")
            print("database bytes:     \(output.databaseBytes)")
        }
    }
}

struct Tables: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Every table with its row count.")
    @OptionGroup var account: AccountOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try runTool {
            let rows = try account.open().tableStatistics()
            if json { return try printJSON(Dictionary(uniqueKeysWithValues: rows.map { ($0.name, $0.rows) })) }
            for row in rows { print("\(row.name.padding(toLength: 8, withPad: " ", startingAt: 0)) \(row.rows)") }
        }
    }
}

struct Peers: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The chat list: chats in order with unread counts.")
    @OptionGroup var account: AccountOptions
    @Flag(help: "Print JSON.") var json = false
    @Option(help: "At most this many chats.") var limit = 100

    struct Row: Codable {
        var peer: String
        var name: String?
        var pinned: Bool
        var topMessage: Int32
        var timestamp: Int32
        var unread: Int32
    }

    func run() throws {
        try runTool {
            let rows = try account.open().transactionSync { tx in
                try tx.chatListEntries(before: nil, count: limit).map { index -> Row in
                    let peerId = index.messageIndex.id.peerId
                    return Row(
                        peer: peerId.description, name: try tx.getPeer(peerId)?.indexName,
                        pinned: index.pinningIndex != nil, topMessage: index.messageIndex.id.id,
                        timestamp: index.messageIndex.timestamp,
                        unread: try tx.getCombinedPeerReadState(peerId)?.count ?? 0)
                }
            }
            if json { return try printJSON(rows) }
            for row in rows {
                let pin = row.pinned ? "📌" : "  "
                print("\(pin) \(row.peer)\t\(row.name ?? "")\tunread \(row.unread)\ttop \(row.topMessage)")
            }
        }
    }
}

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Messages of one chat around a message id.")
    @OptionGroup var account: AccountOptions
    @Argument(help: "The chat: N (user) or namespace:N.") var peer: String
    @Option(help: "The anchor message id (default: the newest).") var around: Int32?
    @Option(help: "How many messages.") var count = 20
    @Flag(help: "Print JSON lines.") var json = false

    func run() throws {
        try runTool {
            let peerId = try parsePeerId(peer)
            let messages = try account.open().transactionSync { tx -> [Message] in
                if let around {
                    guard let index = try tx.messageIndex(MessageId(peerId: peerId, namespace: 0, id: around)) else {
                        throw ToolError.badInput(
                            "no message \(around) in \(peerId)", remedy: "list the chat with history")
                    }
                    return try tx.messagesAround(peerId: peerId, anchor: index, count: count)
                }
                return try tx.earlierMessages(peerId: peerId, before: nil, count: count).reversed()
            }
            try printMessages(messages, json: json)
        }
    }
}

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Full-text search; diacritics and case are ignored (\"pho\" finds \"phở\").")
    @OptionGroup var account: AccountOptions
    @Argument(help: "Words to find (each as a word prefix).") var query: String
    @Option(help: "Only in this chat.") var peer: String?
    @Option(help: "At most this many results.") var limit = 50
    @Flag(help: "Print JSON lines.") var json = false

    func run() throws {
        try runTool {
            let peerId = try peer.map(parsePeerId)
            let messages = try account.open().readTransactionSync { tx in
                try tx.searchMessages(query, peerId: peerId, limit: limit)
            }
            try printMessages(messages, json: json)
        }
    }
}

func printMessages(_ messages: [Message], json: Bool) throws {
    for message in messages {
        if json {
            print(try MessageJSONL.line(for: message))
        } else {
            let author = message.author?.indexName ?? message.authorId?.description ?? "?"
            print("\(message.id.peerId) #\(message.id.id) [\(message.timestamp)] \(author): \(message.text)")
        }
    }
}
