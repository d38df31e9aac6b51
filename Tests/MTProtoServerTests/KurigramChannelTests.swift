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
        let server = try ProcessSupport.Server()
        defer { _ = server.stop() }
        try #require(server.ports.count == 3, "tg-server did not announce its ports")
        let workdir = server.dataDirectory.appendingPathComponent("kurigram")
        try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
        let run = try await ProcessRunner.runOffPool(
            python,
            [
                Self.script.path, "--host", "127.0.0.1", "--ports", server.portList,
                "--pem-file", try server.publicKeyFile().path, "--workdir", workdir.path,
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
}
