import Foundation
import TestVectors
import Testing

/// Telethon 1.45.0 schedules messages on a real tg-server (Tests/Fixtures/telethon/server_scheduled.py):
/// `send_message(..., schedule=...)` answers the scheduled message, `messages.getScheduledHistory` lists it, the
/// recipient has nothing until its time, then gets it live while the sender gets `updateDeleteScheduledMessages`
/// naming the sent id; `messages.deleteScheduledMessages` drops one; a year and more ahead is refused.
@Suite struct TelethonScheduledTests {
    struct Report: Decodable {
        let scheduled: [TelethonChannelTests.JSONValue]
        let listed: [String]
        let bob_before: [String]
        let after_delete: [String]
        let too_late: String?
        let bob_got: [TelethonChannelTests.JSONValue]
        let alice_deleted: [TelethonChannelTests.JSONValue]
        let `finally`: [String]
    }

    @Test func telethonSchedulesAndTheMessageGoesOutAtItsTime() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let server = try await ProcessSupport.Server()
        defer { server.stopLater() }
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/server_scheduled.py")
        let result = try await ProcessRunner.runOffPool(
            python, [script.path, "--port", String(try #require(server.ports[2]))] + (try await server.telethonArguments()),
            timeout: 120)
        try #require(result.succeeded, "\(result.output) \(result.errorOutput.suffix(3000))")
        let report = try JSONDecoder().decode(Report.self, from: result.stdout)
        #expect(report.scheduled == [.text("Message"), .flag(true), .flag(true)])
        #expect(report.listed == ["in two seconds", "next week"])
        #expect(report.bob_before.isEmpty)
        #expect(report.after_delete == ["in two seconds"])
        #expect(report.too_late == "ScheduleDateTooLateError")
        #expect(report.bob_got == [.text("in two seconds"), .flag(false)])
        // Alice's deletion names the scheduled id and the id it was sent as.
        #expect(report.alice_deleted == [.flag(true), .flag(true), .text("in two seconds")])
        #expect(report.finally.isEmpty)
    }
}
