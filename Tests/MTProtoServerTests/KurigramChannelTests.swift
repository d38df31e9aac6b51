import Foundation
import TestVectors
import Testing

/// kurigram 2.2.26 in a supergroup and a broadcast channel on a real tg-server (Tests/Fixtures/kurigram/
/// server_channels.py): `create_supergroup` and `set_chat_username` by one account, `join_chat` by username and
/// `get_chat_history` by another, messages live both ways, and a broadcast post that arrives as the channel's.
@Suite(.serialized) struct KurigramChannelTests {
    struct Report: Decodable {
        let username_set: Bool
        let joined: [JoinedItem]
        let history: [String]
        let history_ids: [Int]
        let type: String
        let bob_got: [JoinedItem]
        let alice_got: [Bool]
        let post: [Bool]
    }

    /// A text or a flag.
    enum JoinedItem: Decodable, Equatable {
        case flag(Bool)
        case text(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }

    static var script: URL {
        Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/kurigram/server_channels.py")
    }

    @Test func kurigramJoinsByUsernameAndReadsTheHistory() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with kurigram: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        try #require(server.ports.count == 3, "tg-server did not announce its ports")
        let workdir = server.dataDirectory.appendingPathComponent("kurigram")
        try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
        let run = try await ProcessRunner.runOffPool(
            python,
            [
                Self.script.path, "--host", "127.0.0.1", "--ports", server.portList,
                "--pem-file", try await server.publicKeyFile().path, "--workdir", workdir.path,
            ],
            timeout: 180)
        try #require(run.succeeded, "\(run.output) \(run.errorOutput.suffix(4000))")
        let report = try JSONDecoder().decode(Report.self, from: run.stdout)
        #expect(report.username_set && report.type == "SUPERGROUP")
        #expect(report.joined == [.text("ChatJoinResultSuccess"), .flag(true)])
        // The creation message, three messages, Bob's join: ids 1…5 of the channel's own sequence.
        #expect(report.history == ["before 0", "before 1", "before 2"])
        #expect(report.history_ids == [1, 2, 3, 4, 5])
        #expect(report.bob_got == [.flag(true), .text("Alice")])
        #expect(report.alice_got == [true, true])
        #expect(report.post == [true, true, true])
    }

    struct LinkReport: Decodable {
        let pin_service: Bool
        let link: [JoinedItem]
        let joiners: [String]
        let joiners_count: Int
        let pinned: String?
        let members: Int?
    }

    struct JoinReport: Decodable {
        let checked: [String]
        let joined: [JoinedItem]
        let pinned: String?
    }

    /// Two client libraries through one link: kurigram pins a message and exports a link
    /// (Tests/Fixtures/kurigram/server_invite_link.py), Telethon checks it and joins by it and reads the pin
    /// (Tests/Fixtures/telethon/server_join_link.py), then kurigram lists who joined through it.
    @Test func kurigramExportsALinkAndTelethonJoinsByIt() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with kurigram: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        try #require(server.ports.count == 3, "tg-server did not announce its ports")
        let workdir = server.dataDirectory.appendingPathComponent("kurigram")
        let handoff = server.dataDirectory.appendingPathComponent("handoff")
        for folder in [workdir, handoff] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let exporter = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/kurigram/server_invite_link.py")
        let joiner = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/server_join_link.py")
        let exportArguments = [
            exporter.path, "--host", "127.0.0.1", "--ports", server.portList,
            "--pem-file", try await server.publicKeyFile().path, "--workdir", workdir.path, "--handoff", handoff.path,
        ]
        let joinArguments =
            [joiner.path, "--port", String(try #require(server.ports[2])), "--handoff", handoff.path]
            + (try await server.telethonArguments())
        async let exported = ProcessRunner.runOffPool(python, exportArguments, timeout: 180)
        async let joined = ProcessRunner.runOffPool(python, joinArguments, timeout: 180)
        let (exportRun, joinRun) = try await (exported, joined)
        try #require(exportRun.succeeded, "\(exportRun.output) \(exportRun.errorOutput.suffix(4000))")
        try #require(joinRun.succeeded, "\(joinRun.output) \(joinRun.errorOutput.suffix(4000))")
        let link = try JSONDecoder().decode(LinkReport.self, from: exportRun.stdout)
        let join = try JSONDecoder().decode(JoinReport.self, from: joinRun.stdout)
        #expect(link.pin_service && link.link == [.flag(true), .text("for telethon"), .text("5")])
        #expect(join.checked == ["ChatInvite", "Kuri club"])
        #expect(join.joined == [.text("Kuri club"), .flag(true)])
        #expect(join.pinned == "club rules")
        #expect(link.joiners == ["Bob"] && link.joiners_count == 1)
        #expect(link.pinned == "club rules" && link.members == 2)
    }
}
