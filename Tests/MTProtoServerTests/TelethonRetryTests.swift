import Foundation
import TestVectors
import Testing

/// The Telethon client that `TelethonInteropTests` uses retries a failed auth-key exchange, as it
/// would against Telegram. About one key in 256 starts with a zero byte, which Telethon strips before hashing, so it
/// rejects the server's (correct) dh_gen_ok with "Step 3 invalid new nonce hash"; `retry_check.py` produces that same
/// rejection on purpose, with a relay that spoils new_nonce_hash1 in the server's first dh_gen_ok.
@Suite struct TelethonRetryTests {
    struct Report: Decodable {
        struct Connection: Decodable {
            let pong_ok: Bool
            let auth_key_id: String
        }
        let first: Connection
        let second: Connection
        let corrupted: Int
    }

    @Test func telethonRetriesAKeyExchangeItRejected() async throws {
        try #require(FileManager.default.fileExists(atPath: ProcessSupport.python.path), "no .venv: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        let dc2 = try #require(server.ports[2], "tg-server did not announce its ports")
        let pemFile = try await server.publicKeyFile()
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/retry_check.py")
        let result = try await ProcessRunner.runOffPool(
            ProcessSupport.python,
            [
                script.path, "--host", "127.0.0.1", "--port", String(dc2), "--pem-file", pemFile.path,
                "--transport", "intermediate", "--session", server.dataDirectory.appendingPathComponent("retry").path,
            ], timeout: 120)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(2000))")
        let report = try JSONDecoder().decode(Report.self, from: result.stdout)
        // One exchange was spoiled, Telethon said why, tried again and then worked normally.
        #expect(report.corrupted == 1)
        #expect(result.errorOutput.contains("Attempt 1 at new auth_key failed: Step 3 invalid new nonce hash"))
        #expect(report.first.pong_ok && report.second.pong_ok)
        #expect(report.first.auth_key_id == report.second.auth_key_id)
        // The server completed both exchanges: the key Telethon rejected and the one it kept.
        let stored = try FileManager.default.contentsOfDirectory(
            atPath: server.dataDirectory.appendingPathComponent("auth-keys").path)
        #expect(stored.count == 2)
    }
}
