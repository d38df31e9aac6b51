import Foundation
import TestVectors
import Testing

/// Telethon 1.45.0's `ConnectionHttp` against tg-server: MTProto over HTTP POST /api on the same port as TCP — key
/// exchange, help.getConfig, sign-up, and messages to a user on TCP (Tests/Fixtures/telethon/server_http.py).
@Suite(.serialized) struct TelethonHTTPTests {
    struct Report: Decodable {
        let this_dc: Int
        let carol_id: Int64
        let dave_id: Int64
        let dave_got: [String]
        let carol_sees: Int
    }

    @Test func telethonTalksOverHttp() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/server_http.py")
        let result = try await ProcessRunner.runOffPool(
            python, [script.path, "--port", String(try #require(server.ports[2]))] + (try await server.telethonArguments()),
            timeout: 150)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let report = try JSONDecoder().decode(Report.self, from: result.stdout)
        #expect(report.this_dc == 2)
        #expect(report.carol_id != report.dave_id)
        #expect(report.dave_got == (0..<5).map { "over http \($0)" })
        #expect(report.carol_sees == 5)
    }
}
