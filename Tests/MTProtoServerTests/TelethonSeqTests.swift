import Foundation
import TestVectors
import Testing

/// Telethon 1.45.0 in tg-server's seq sequence and with anonymous forwards, on a real tg-server
/// (Tests/Fixtures/telethon/server_seq.py): two sessions of one account change privacy, blocks, drafts and notify
/// settings; the listening client receives every change, never asks for a difference (Telethon's MessageBox does on a
/// seq gap), and ends at the server's seq. A message of an author who hides forwards reaches a third account with
/// `fwd_from.from_name` and no `from_id`.
@Suite struct TelethonSeqTests {
    struct Forwarded: Decodable {
        let from_name: String?
        let from_id: String?
    }

    struct Report: Decodable {
        let tracked: Bool
        let seq_before: Int
        let received: [String]
        let seq_after: Int
        let server_seq: Int
        let differences: [Int]
        let forwarded: Forwarded
    }

    @Test func telethonFollowsTheSeqSequenceAndSeesAnonymousForwards() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/server_seq.py")
        let result = try await ProcessRunner.runOffPool(
            python, [script.path, "--port", String(try #require(server.ports[2]))] + (try await server.telethonArguments()),
            timeout: 120)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let report = try JSONDecoder().decode(Report.self, from: result.stdout)
        // The client tracks the account, so a seq gap would have started a difference.
        #expect(report.tracked && report.seq_before == 0)
        #expect(
            report.received
                == ["UpdateDraftMessage", "UpdateDraftMessage"] + Array(repeating: "UpdateNotifySettings", count: 4)
                + ["UpdatePeerBlocked", "UpdatePeerBlocked"] + Array(repeating: "UpdatePrivacy", count: 4))
        #expect(report.differences.isEmpty, "Telethon asked for a difference from pts \(report.differences)")
        #expect(report.server_seq == 12 && report.seq_after == 12)
        #expect(report.forwarded.from_name == "Bob" && report.forwarded.from_id == nil)
    }
}
