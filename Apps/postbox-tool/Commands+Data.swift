import ArgumentParser
import CommandLineOutput
import Foundation
import Postbox
import PostboxJSONL

struct ImportJSONL: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-jsonl",
        abstract: "Add messages from a JSON-lines file (peer, id, timestamp, author, text; optionally entities, "
            + "media, groupingKey, incoming); creates the account directory if missing.",
        discussion: "Every line is checked before anything is written: a bad line is reported with its number and "
            + "the database is left as it was.")
    @OptionGroup var account: AccountOptions
    @Argument(help: "The JSON-lines file ('-' for standard input).") var file: String
    @Option(help: "Messages per transaction.") var batch = 10_000

    func run() throws {
        try runTool {
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let contents = FileManager.default.contents(atPath: file) else {
                    throw ToolError.badInput("cannot read \(file)", remedy: "check the path and its permissions")
                }
                data = contents
            }
            let records: [MessageLine]
            do {
                // Every line is checked before the account is created or opened.
                records = try MessageJSONL.parse([UInt8](data))
            } catch {
                throw ToolError.badInput("\(file): \(error)", remedy: "fix that line; nothing was written")
            }
            let postbox = try account.open(create: true)
            let start = Date()
            let progress = ProgressLine(tool: PostboxTool.toolName, total: records.count)
            let imported = try MessageJSONL.store(records, in: postbox, batch: batch) { count in
                let rate = Double(count) / max(Date().timeIntervalSince(start), 1e-3)
                progress.update(done: count, current: "\(Int(rate)) messages/s")
            }
            progress.finish()
            try postbox.checkpoint()
            print("imported \(imported) messages")
        }
    }
}

struct ExportJSONL: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-jsonl", abstract: "Print every message as a JSON line (the import-jsonl format).")
    @OptionGroup var account: AccountOptions

    func run() throws {
        try runTool {
            try MessageJSONL.exportLines(of: account.open()) { line in
                print(line)
                return true
            }
        }
    }
}

struct Rekey: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-encrypt under a new key (--new-key-file, or $POSTBOX_NEW_KEY as 96 hex digits) and store it "
            + "in --key-file.",
        discussion: """
            Two-phase: the new key is first written to <key file>.pending, then the database is re-encrypted, then \
            the key file is replaced. If the tool is killed on the way, the next command that opens the account \
            with the same --key-file finds which of the two keys opens the database and keeps that one.
            """)
    @OptionGroup var account: AccountOptions
    @Option(help: "A file with the new key: 48 raw bytes or 96 hex digits.") var newKeyFile: String?

    func run() throws {
        try runTool {
            guard let keyFile = account.keyFile else {
                throw ToolError.badInput(
                    "rekey needs --key-file F",
                    remedy: "the new key is stored in F once the database is re-encrypted, so that a crash on the way "
                        + "can always be recovered")
            }
            let newKey: PostboxEncryptionParameters
            if let newKeyFile {
                newKey = try PostboxKeyFile(path: newKeyFile).read()
            } else if let hex = ProcessInfo.processInfo.environment["POSTBOX_NEW_KEY"] {
                newKey = try PostboxEncryptionParameters(hex: hex)
            } else {
                throw ToolError.badInput("no new key", remedy: "give --new-key-file F or set POSTBOX_NEW_KEY")
            }
            let postbox = try account.open()
            try postbox.checkpoint(truncate: true)
            try postbox.rekey(
                to: newKey, keyFile: PostboxKeyFile(path: keyFile), phase: RekeyPhaseHook.fromEnvironment())
            print("rekeyed \(postbox.databasePath); \(keyFile) holds the new key")
        }
    }
}

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "SQLite integrity check, then decode every stored message, peer and chat-list entry.")
    @OptionGroup var account: AccountOptions

    func run() throws {
        try runTool {
            let postbox = try account.open()
            let integrity = try postbox.integrityCheck()
            guard integrity == ["ok"] else {
                throw ToolError("integrity check failed: " + integrity.prefix(5).joined(separator: "; "))
            }
            let (messages, peers, chats) = try postbox.readTransactionSync { tx -> (Int, Int, Int) in
                var messages = 0
                try tx.scanMessages { _ in
                    messages += 1
                    return true
                }
                let peers = try tx.getAllPeers().count
                let chats = try tx.chatListEntries(before: nil, count: Int.max)
                for chat in chats { _ = try tx.getCombinedPeerReadState(chat.messageIndex.id.peerId) }
                return (messages, peers, chats.count)
            }
            print("ok: integrity ok, \(messages) messages, \(peers) peers, \(chats) chats decoded")
        }
    }
}

struct WriteLoop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write-loop", abstract: "Commit numbered transactions until killed (for the crash-safety test).",
        shouldDisplay: false)
    @OptionGroup var account: AccountOptions
    @Option(help: "Stop after this many transactions.") var limit = Int.max

    func run() throws {
        try runTool {
            let postbox = try account.open(create: true)
            let peerId = PeerId(namespace: .init(rawValue: 0), id: .init(rawValue: 1))
            var next = try postbox.transactionSync { tx in
                Int32(
                    try tx.keychainEntryForKey("counter").map { String(decoding: $0, as: UTF8.self) }.flatMap {
                        Int32($0)
                    } ?? 0) + 1
            }
            var done = 0
            while done < limit {
                let n = next
                try postbox.transactionSync { tx in
                    try tx.addMessages([
                        StoreMessage(
                            id: .id(MessageId(peerId: peerId, namespace: 0, id: n)), timestamp: n, flags: [.incoming],
                            authorId: peerId, text: "message \(n) phở")
                    ])
                    try tx.setKeychainEntry(Array(String(n).utf8), forKey: "counter")
                }
                // Unbuffered, so the parent sees each line as soon as the commit returned.
                FileHandle.standardOutput.write(Data("committed \(n)\n".utf8))
                next += 1
                done += 1
            }
        }
    }
}
