import Foundation
import Postbox
import SyncCore
import PostboxJSONL
import PostboxTesting
import TestVectors
import Testing

/// The JSON-lines mapping: lines round-trip through a real Postbox, and a bad line is named by its number and
/// leaves the database as it was.
@Suite struct MessageJSONLTests {
    static let key = try! PostboxEncryptionParameters(key: Array(0..<32), salt: Array(32..<48))

    func makePostbox() throws -> (Postbox, TemporaryDirectory) {
        registerPostboxTestTypes()
        let directory = TemporaryDirectory(prefix: "postbox-jsonl")
        return (try Postbox.open(accountPath: directory.path + "/account-1", encryption: Self.key), directory)
    }

    func exported(_ postbox: Postbox) throws -> [String] {
        var lines: [String] = []
        try MessageJSONL.exportLines(of: postbox) { line in
            lines.append(line)
            return true
        }
        return lines
    }

    /// A random line in the canonical form export writes (absent rather than empty or false).
    static func randomLine(_ generator: inout SeededGenerator, id: Int32) -> MessageLine {
        let words = [
            "phở", "bò", "ánh sáng", "hello", "мир", "🙂", "a/b", "\"quoted\"", "tab\there", "line\nbreak",
        ]
        let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
            words.randomElement(using: &generator)!
        }.joined(separator: " ")
        let kinds = ["photo", "video", "file", "voice", "music", "gif", "sticker", "round"]
        let media: [MessageLine.MediaLine]? =
            Bool.random(using: &generator)
            ? nil
            : (1...Int.random(in: 1...2, using: &generator)).map { index in
                // Export writes every media id, and no name for a photo (SyncCore's images have none).
                let kind = kinds.randomElement(using: &generator)!
                return MessageLine.MediaLine(
                    kind: kind, name: kind == "photo" ? nil : "f\(index).bin",
                    size: Bool.random(using: &generator) ? nil : Int64.random(in: 0...1 << 40, using: &generator),
                    id: Int64.random(in: 1...1 << 50, using: &generator))
            }
        let entities: [MessageLine.EntityLine]? =
            Bool.random(using: &generator)
            ? nil
            : [
                .init(type: "bold", offset: 0, length: Int32.random(in: 1...9, using: &generator)),
                .init(type: "pre", offset: 1, length: 2, language: Bool.random(using: &generator) ? "swift" : nil),
                .init(type: "textUrl", offset: 2, length: 3, url: "https://core.telegram.org/api/entities"),
                .init(type: "textMention", offset: 0, length: 1, userId: Int64.random(in: 1...1 << 40, using: &generator)),
            ]
        return MessageLine(
            peer: Int64.random(in: 1...4, using: &generator),
            peerNamespace: Bool.random(using: &generator) ? nil : 1,
            namespace: Bool.random(using: &generator) ? nil : 1, id: id,
            timestamp: Int32.random(in: 1_600_000_000...1_800_000_000, using: &generator),
            author: Int64.random(in: 1...1 << 40, using: &generator), text: text,
            incoming: Bool.random(using: &generator) ? true : nil, entities: entities, media: media,
            groupingKey: Bool.random(using: &generator) ? nil : Int64.random(in: 1...99, using: &generator))
    }

    /// Property: 300 random lines imported, exported and parsed again are the same lines, and exporting the import
    /// of the export gives the same text.
    @Test func importThenExportRoundTrips() throws {
        var generator = SeededGenerator(seed: 77)
        let lines = (1...300).map { Self.randomLine(&generator, id: Int32($0)) }
        let encoder = JSONEncoder()
        let input = try lines.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.joined(separator: "\n")
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        #expect(try MessageJSONL.importMessages(Array(input.utf8), into: postbox, batch: 64) == 300)

        let output = try exported(postbox)
        let reparsed = try MessageJSONL.parse(Array(output.joined(separator: "\n").utf8))
        let key = { (line: MessageLine) in "\(line.peerNamespace ?? 0):\(line.peer):\(line.namespace ?? 0):\(line.id)" }
        #expect(reparsed.sorted { key($0) < key($1) } == lines.sorted { key($0) < key($1) })

        let (second, secondDirectory) = try makePostbox()
        defer { secondDirectory.remove() }
        try MessageJSONL.importMessages(Array(output.joined(separator: "\n").utf8), into: second)
        #expect(try exported(second) == output)
    }

    @Test func knownLineExportsWithSortedKeys() throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        let line = #"{"peer": 7, "id": 1, "timestamp": 102, "author": 7, "text": "ánh sáng", "media": [{"kind": "photo", "name": "a.jpg", "size": 5, "id": 9}], "groupingKey": 4}"#
        try MessageJSONL.importMessages(Array(line.utf8), into: postbox)
        #expect(
            try exported(postbox) == [
                #"{"author":7,"groupingKey":4,"id":1,"media":[{"id":9,"kind":"photo","size":5}],"peer":7,"text":"ánh sáng","timestamp":102}"#
            ])
        // Stored as the product's types: a TelegramUser for the chat and author, a TelegramMediaImage for the photo.
        let stored = try postbox.readTransactionSync { tx in try tx.getMessage(MessageId(peerId: .user(7), namespace: 0, id: 1)) }
        let message = try #require(stored)
        #expect((message.author as? TelegramUser)?.firstName == "user 7")
        #expect((message.media.first as? TelegramMediaImage)?.representations.first?.byteSize == 5)
        #expect(message.tags == [.photoOrVideo, .photo])
    }

    /// Each bad line is reported with its real line number (blank lines count), in words, and the database — which
    /// already holds messages — is byte-for-byte what it was.
    @Test(arguments: [
        (#"{"peer": 1, "id": 5, "timestamp": 1}"#, #"missing field "text""#),
        (#"{"peer": 1, "id": "five", "timestamp": 1, "text": "x"}"#, #"field "id" is not a 32-bit integer"#),
        (#"{"peer": 1, "id": 5, "timestamp": 1, "text": "x", "media": [{"name": "a"}]}"#, #"missing field "media[0].kind""#),
        (#"{"peer": 1, "id": 5, "timestamp": 1, "text": "x", "peerNamespace": 9}"#, #""peerNamespace" is 9"#),
        (#"{"peer": 1, "id": 5, "timestamp": 1, "text": "x", "peerNamespace": 2}"#, #"a chat is a user (0) or a basic group (1)"#),
        (#"{"peer": 1, "id": 5, "timestamp": 1, "text": "x", "media": [{"kind": "hologram"}]}"#, #""media[0].kind" is "hologram""#),
        (#"{"peer": 1, "id": 5, "timestamp": 1, "text": "x", "entities": [{"type": "blink", "offset": 0, "length": 1}]}"#, #""entities[0].type" is "blink""#),
        (#"{"peer": 4611686018427387904, "id": 5, "timestamp": 1, "text": "x"}"#, #""peer" 4611686018427387904 cannot be stored"#),
        (#"{"peer": 1, "id": 5, "#, "not a JSON object"),
        (#"[1, 2, 3]"#, "not a JSON object"),
    ])
    func badLineIsNamedAndNothingIsWritten(_ bad: String, _ expected: String) throws {
        let (postbox, directory) = try makePostbox()
        defer { directory.remove() }
        try MessageJSONL.importMessages(
            Array(#"{"peer": 1, "id": 1, "timestamp": 10, "author": 2, "text": "kept"}"#.utf8), into: postbox)
        try postbox.checkpoint(truncate: true)
        let database = postbox.databasePath
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let stateBefore = postbox.transactionStateVersion

        let good = #"{"peer": 2, "id": 1, "timestamp": 10, "text": "would be written"}"#
        let input = [good, "", "   ", good.replacingOccurrences(of: "\"id\": 1", with: "\"id\": 2"), bad, good]
            .joined(separator: "\n")
        let error = try #require(throws: MessageJSONLError.self) {
            try MessageJSONL.importMessages(Array(input.utf8), into: postbox, batch: 1)
        }
        #expect(error.line == 5, "\(error)")
        #expect(error.description.hasPrefix("line 5: "))
        #expect(error.description.contains(expected), "\(error)")
        #expect(!error.description.contains("Swift."), "\(error)")

        #expect(try exported(postbox).count == 1)
        #expect(postbox.transactionStateVersion == stateBefore)
        try postbox.checkpoint(truncate: true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
    }

    @Test func blankLinesAndCRLFAreAccepted() throws {
        let input = "\r\n" + #"{"peer": 1, "id": 1, "timestamp": 10, "text": "a"}"# + "\r\n\n"
            + #"{"peer": 1, "id": 2, "timestamp": 11, "text": "b"}"# + "\n"
        let lines = try MessageJSONL.parse(Array(input.utf8))
        #expect(lines.map(\.id) == [1, 2])
        #expect(lines.map(\.text) == ["a", "b"])
    }
}
