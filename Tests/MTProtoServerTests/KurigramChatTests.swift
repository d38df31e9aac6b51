import Foundation
import TestVectors
import Testing

/// kurigram 2.2.26, a Pyrogram-family client (`import pyrogram`, layer 229), as two people using the built
/// `tg-server` as Telegram (Tests/Fixtures/kurigram/server_chat.py): sign-up with PHONE_MIGRATE followed, a username,
/// users found with `get_users` and `get_chat` (inputPeer* where the schema names InputUser), text with markdown and
/// HTML entities seen live by handlers, history and dialogs with unread counts, an edit and a delete seen live, a
/// photo sent on DC 1 and downloaded from DC 2, a basic group made with `create_group`. Every one of its sessions
/// opens with a `ping` at an even seq_no.
@Suite(.serialized) struct KurigramChatTests {
    /// `[name, offset, length(, url)]` of a message entity; a mixed JSON list read as text and numbers.
    enum Item: Decodable, Equatable {
        case number(Int64)
        case text(String)
        case flag(Bool)
        case list([Item])
        case null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? container.decode(Int64.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .list(try container.decode([Item].self))
            }
        }
    }

    struct Report: Decodable {
        struct Users: Decodable {
            let by_name: [Item]
            let by_id_and_me: [[Item]]
            let chat: [Item]
        }
        struct Texts: Decodable {
            let alice_got: [Item]
            let bob_sent: [[Item]]
            let bob_got: [Item]
        }
        struct Dialogs: Decodable {
            let alice_before: [[Int64]]
            let alice_after: [[Int64]]
            let bob: [[Int64]]
        }
        struct Changes: Decodable {
            let edited: [Item]
            let deleted: [Item]
        }
        struct Photo: Decodable {
            let dc: Int
            let size: [Int]
            let jpeg: [Int]
        }
        struct Group: Decodable {
            let title: [String]
            let type: String
            let seen: [[Bool]]
            let members: [String]
        }
        let kurigram: String
        let dcs: [Int]
        let ids: [Int64]
        let users: Users
        let texts: Texts
        let history: [String: [[Item]]]
        let dialogs: Dialogs
        let changes: Changes
        let photo: Photo
        let group: Group
    }

    static var script: URL { Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/kurigram/server_chat.py") }

    @Test func twoPeopleTalkWithAPyrogramFamilyClient() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with kurigram: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        try #require(server.ports.count == 3, "tg-server did not announce its ports")
        let workdir = server.dataDirectory.appendingPathComponent("kurigram")
        try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
        let started = Date()
        let run = try await ProcessRunner.runOffPool(
            python,
            [
                Self.script.path, "--host", "127.0.0.1", "--ports", server.portList,
                "--pem-file", try await server.publicKeyFile().path, "--workdir", workdir.path,
            ],
            timeout: 240)
        try #require(run.succeeded, "\(run.output) \(run.errorOutput.suffix(4000))")
        let report = try JSONDecoder().decode(Report.self, from: run.stdout)
        let seconds = Date().timeIntervalSince(started)
        #expect(report.kurigram == "2.2.26", "took \(seconds) s")
        let (alice, bob) = (report.ids[0], report.ids[1])
        // Alice's number belongs to DC 1: kurigram followed PHONE_MIGRATE_1 from DC 2.
        #expect(report.dcs == [1, 2])
        // users.getUsers with inputPeerUser (by username, by id) and inputPeerSelf ("me"); users.getFullUser too.
        #expect(report.users.by_name == [.number(alice), .text("alice_01")])
        #expect(report.users.by_id_and_me == [
            [.number(alice), .text("Alice"), .flag(false)], [.number(bob), .text("Bob"), .flag(true)],
        ])
        #expect(report.users.chat == [.number(alice), .text("Alice"), .text("alice_01")])
        // Entities both ways, seen live; the reply names Bob's own copy.
        #expect(report.texts.alice_got == [
            .text("hello Alice, see code and a link"),
            .list([
                .list([.text("BOLD"), .number(0), .number(5)]), .list([.text("CODE"), .number(17), .number(4)]),
                .list([.text("TEXT_LINK"), .number(26), .number(6), .text("https://example.com")]),
            ]),
            .number(bob),
        ])
        #expect(report.texts.bob_sent.count == 3)
        guard case .number(let sentId) = report.texts.bob_got[3] else { Issue.record("\(report.texts)"); return }
        #expect(report.texts.bob_got == [
            .text("hi Bob"), .list([.list([.text("ITALIC"), .number(0), .number(2)])]),
            .number(sentId), .number(sentId),
        ])
        #expect(report.history["alice"]?.map { Array($0.dropFirst()) } == [
            [.flag(true), .text("hi Bob")], [.flag(false), .text("hello Alice, see code and a link")],
        ])
        #expect(report.history["bob"]?.count == 2)
        // Unread: Alice has Bob's one message until she reads, Bob has her reply.
        #expect(report.dialogs.alice_before == [[bob, 1]] && report.dialogs.alice_after == [[bob, 0]])
        #expect(report.dialogs.bob == [[alice, 1]])
        // The edit reached Alice's copy; the revoked reply left Bob's box.
        #expect(Array(report.changes.edited.prefix(2)) == [report.changes.edited[3], .text("hello Alice (edited)")])
        #expect(report.changes.deleted.count == 2 && report.changes.deleted[0] == .list([report.changes.deleted[1]]))
        // Stored on Alice's DC 1, downloaded by Bob (DC 2) from there as a JPEG of the size the photo states.
        #expect(report.photo.dc == 1 && report.photo.jpeg == report.photo.size && report.photo.size == [800, 480])
        // messages.createChat with an inputPeerUser member.
        #expect(report.group.title == ["Pair", "Pair"] && report.group.type == "GROUP")
        #expect(report.group.seen == [[true, true], [true, true]])
        #expect(report.group.members == ["Alice", "Bob"])
        #expect(await server.stop() == 0)
    }
}
