import Foundation
import TestVectors
import Testing

/// `kill -9` in the middle of a burst of sends loses nothing a client got an answer for: Telethon sends from 16
/// concurrent tasks (Tests/Fixtures/telethon/server_burst.py) and notes every answered message; tg-server is killed
/// with SIGKILL once 1,000 have been answered; after a restart every answered message is in the history, once.
@Suite(.serialized) struct ServerCrashTests {
    static var script: URL { Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/server_burst.py") }

    static func acknowledged(_ output: Data) -> [String] {
        String(decoding: output, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("ACK ") }.map {
            String($0.dropFirst(4))
        }
    }

    @Test func answeredMessagesSurviveSIGKILLDuringABurst() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        var server = try await ProcessSupport.Server()
        let folder = server.dataDirectory
        // Whichever server runs when the test ends is stopped, and only then is the folder removed.
        defer { server.stopLater() }
        let common = try await server.telethonArguments()

        let burst = try ProcessRunner.start(
            python, [Self.script.path, "--port", String(try #require(server.ports[2])), "--phase", "burst"] + common)
        let reached = await burst.waitForOutputOffPool(timeout: 120) { Self.acknowledged($0).count >= 1000 }
        await server.kill()
        let ended = await burst.waitOffPool(timeout: 60)
        try #require(
            reached,
            "the burst did not reach 1,000 answered sends: \(ended.output.suffix(500)) \(ended.errorOutput.suffix(2000))"
        )
        #expect(!ended.timedOut, "the burst did not end when the server died")
        let acknowledged = Self.acknowledged(ended.stdout)

        server = try await ProcessSupport.Server(dataDirectory: folder)
        let check = try await ProcessRunner.runOffPool(
            python,
            [
                Self.script.path, "--port", String(try #require(server.ports[2])), "--phase", "verify", "--dc-ports",
                server.portList,
            ] + common,
            timeout: 120)
        try #require(check.succeeded, "\(check.output) \(check.errorOutput.suffix(3000))")
        struct History: Decodable { let texts: [String] }
        let stored = try JSONDecoder().decode(History.self, from: check.stdout).texts
        let missing = Set(acknowledged).subtracting(stored)
        #expect(acknowledged.count >= 1000)
        #expect(missing.isEmpty, "\(missing.count) answered messages were lost, e.g. \(missing.prefix(5))")
        #expect(Set(stored).count == stored.count, "a message was stored twice")
        // At most the 16 sends in flight at the kill may have been stored without an answer.
        #expect(stored.count - acknowledged.count <= 16)
    }
}
