import FoundationEssentials
public import Postbox
import SyncCore

/// The JSON-lines mapping of a Postbox's messages: one `MessageLine` object per line, as `postbox-tool
/// import-jsonl` reads and `export-jsonl` writes, in the product's types (SyncCore): photos and files with their
/// attributes, text entities, and the peers a line names (the chat and the author) created when missing as a
/// `TelegramUser` "user N" or a `TelegramGroup` "chat N".
public enum MessageJSONL {
    /// Decodes every line of `bytes` (blank lines are skipped). Throws at the first line that is not a message
    /// object, or names a peer that cannot be stored, with its 1-based line number.
    public static func parse(_ bytes: [UInt8]) throws(MessageJSONLError) -> [MessageLine] {
        let decoder = JSONDecoder()
        var lines: [MessageLine] = []
        var number = 0
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            number += 1
            let line = bytes[start..<end]
            start = end + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0d }) { continue }
            let record: MessageLine
            do {
                record = try decoder.decode(MessageLine.self, from: Data(line))
            } catch let error as DecodingError {
                throw MessageJSONLError(line: number, reason: describe(error))
            } catch {
                throw MessageJSONLError(line: number, reason: "not a message object: \(error)")
            }
            if let problem = record.storageProblem { throw MessageJSONLError(line: number, reason: problem) }
            lines.append(record)
        }
        return lines
    }

    /// Parses all of `bytes` first, then stores the messages in transactions of `batch`, creating missing peers;
    /// `progress` receives the running count after each transaction. Returns the number of messages stored.
    ///
    /// A bad line throws `MessageJSONLError` before anything is written, so the database is left as it was.
    @discardableResult
    public static func importMessages(
        _ bytes: [UInt8], into postbox: Postbox, batch: Int = 10_000, progress: ((Int) -> Void)? = nil
    ) throws -> Int {
        try store(try parse(bytes), in: postbox, batch: batch, progress: progress)
    }

    /// Stores parsed lines in transactions of `batch`, creating missing peers; `progress` receives the running
    /// count after each transaction. Returns the number of messages stored.
    @discardableResult
    public static func store(
        _ records: [MessageLine], in postbox: Postbox, batch: Int = 10_000, progress: ((Int) -> Void)? = nil
    ) throws -> Int {
        registerSyncCoreTypes()
        var imported = 0
        for chunk in stride(from: 0, to: records.count, by: max(batch, 1)) {
            let slice = records[chunk..<min(chunk + max(batch, 1), records.count)]
            var peers: [PeerId: Peer] = [:]
            for record in slice {
                peers[record.peerId] = SyncCoreMapping.peer(record.peerId)
                if let authorId = record.authorId, peers[authorId] == nil {
                    peers[authorId] = SyncCoreMapping.peer(authorId)
                }
            }
            let messages = slice.map { $0.storeMessage() }
            let newPeers = Array(peers.values)
            try postbox.transactionSync { tx in
                try tx.updatePeers(try newPeers.filter { try tx.getPeer($0.id) == nil })
                try tx.addMessages(messages)
            }
            imported += messages.count
            progress?(imported)
        }
        return imported
    }

    /// The JSON line (sorted keys, no trailing newline) for a stored message.
    public static func line(for message: Message) throws -> String {
        String(decoding: try encoder.encode(MessageLine(message)), as: UTF8.self)
    }

    /// Calls `body` with every stored message's line, in storage order (chat, namespace, id), inside one read
    /// transaction; `body` returns `false` to stop.
    public static func exportLines(of postbox: Postbox, _ body: (String) throws -> Bool) throws {
        registerSyncCoreTypes()
        try postbox.readTransactionSync { tx in
            try tx.scanMessages { message in try body(try line(for: message)) }
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A decoding error in words: which field and what was wrong, without Swift's type dumps.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let keys = codingPath + (last.map { [$0] } ?? [])
            return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacing(".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \"\(path(context.codingPath, key))\""
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty { return "not a JSON object" }
            return "field \"\(path(context.codingPath))\" is not \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "field \"\(path(context.codingPath))\" is null, expected \(typeName(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not a JSON object (\(context.debugDescription))" }
            return "field \"\(path(context.codingPath))\": \(context.debugDescription)"
        @unknown default:
            return "not a message object: \(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int32.Type: return "a 32-bit integer"
        case is Int64.Type: return "a 64-bit integer"
        case is Double.Type: return "a number"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "an array" }
            return name.contains("Dictionary") || name.contains("Line") ? "an object" : "a \(name)"
        }
    }
}
