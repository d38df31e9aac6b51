import Foundation
import TelegramClient
import TestVectors
import Testing

/// Scheduled messages as real `tg` processes against a `tg-server` process: Alice schedules a text an hour ahead
/// (`send --at +1h`), `scheduled` lists it and Bob has nothing; a year and more ahead is refused (exit 6,
/// SCHEDULE_DATE_TOO_LATE); one two seconds ahead reaches Bob at its time and leaves Alice's list.
@Suite(.serialized) struct ScheduledCommandTests {
    struct Item: Decodable, Equatable {
        let chat: String
        let id: Int32?
        let date: Int32?
        let text: String
    }

    @Test func timesAreReadAsISO8601OrRelative() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(ScheduledCommands.parseTime("+10m", now: now) == now.addingTimeInterval(600))
        #expect(ScheduledCommands.parseTime("+2h", now: now) == now.addingTimeInterval(7200))
        #expect(ScheduledCommands.parseTime("+1d", now: now) == now.addingTimeInterval(86_400))
        #expect(ScheduledCommands.parseTime("+90s", now: now) == now.addingTimeInterval(90))
        #expect(
            ScheduledCommands.parseTime("2027-01-15T08:00:00Z")?.timeIntervalSince1970 == 1_800_000_000)
        #expect(
            ScheduledCommands.parseTime("2027-01-15T10:00:00+02:00")?.timeIntervalSince1970 == 1_800_000_000)
        #expect(ScheduledCommands.parseTime("2027-01-15T08:00")?.timeIntervalSince1970 == 1_800_000_000)
        #expect(ScheduledCommands.parseTime("tomorrow") == nil)
        #expect(ScheduledCommands.parseTime("+10x") == nil)
    }

    @Test func aliceSchedulesAndBobGetsItAtItsTime() async throws {
        try await CommandLineHarness.with(scheduling)
    }

    func scheduling(_ harness: CommandLineHarness) async throws {
        let help = try await harness.tg(["send", "--help"])
        #expect(help.status == 0 && help.output.contains("--at"), "tg send --help: \(help.output)")
        let listHelp = try await harness.tg(["scheduled", "--help"])
        #expect(listHelp.status == 0 && listHelp.output.contains("getScheduledHistory"), "\(listHelp.output)")
        for (account, phone, name) in [("alice", "9996610091", "Alice"), ("bob", "9996620092", "Bob")] {
            let login = try await harness.tgJSON(
                LoginResult.self,
                [
                    "login", "--account", account, "--phone", phone, "--code",
                    String(repeating: String(phone.dropFirst(5).prefix(1)), count: 5),
                    "--first-name", name, "--server", harness.serverArgument, "--server-key", harness.keyFile,
                ])
            #expect(login.status == "signedIn", "\(account): \(login)")
        }
        // Bob writes first, so each has the other's chat.
        _ = try await harness.tgJSON(MessageSummary.self, ["--account", "bob", "send", "+9996610091", "hi"])
        let later = try await harness.tgJSON(
            Item.self, ["--account", "alice", "send", "+9996620092", "in an hour", "--at", "+1h"])
        #expect(later.text == "in an hour" && later.id != nil)
        let hour = Int32(Date().timeIntervalSince1970) + 3600
        #expect(abs(Int(later.date ?? 0) - Int(hour)) <= 5, "\(later)")
        let listed = try await harness.tgJSON([Item].self, ["--account", "alice", "scheduled", "+9996620092"])
        #expect(listed == [later])
        let line = try await harness.tg(["--account", "alice", "scheduled", "+9996620092"])
        #expect(line.output.contains("at ") && line.output.contains(": in an hour"), "\(line.output)")
        let tooLate = try await harness.tg(["--account", "alice", "send", "+9996620092", "far", "--at", "+400d"])
        #expect(tooLate.status == 6 && tooLate.errorOutput.contains("SCHEDULE_DATE_TOO_LATE"), "\(tooLate.errorOutput)")
        let past = try await harness.tg([
            "--account", "alice", "send", "+9996620092", "then", "--at", "2020-01-01T00:00:00Z",
        ])
        #expect(past.status != 0 && past.errorOutput.contains("not in the future"), "\(past.errorOutput)")
        // Bob has nothing of it; the one two seconds ahead reaches him, and Alice's list keeps only the hour's.
        let bobs = try await harness.tgJSON([MessageSummary].self, ["--account", "bob", "history", "+9996610091"])
        #expect(!bobs.contains { $0.text == "in an hour" })
        _ = try await harness.tgJSON(
            Item.self, ["--account", "alice", "send", "+9996620092", "in two seconds", "--at", "+2s"])
        let arrived = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "bob", "history", "+9996610091"],
            eventually: { $0.contains { $0.text == "in two seconds" } })
        #expect(arrived.contains { $0.text == "in two seconds" })
        let remaining = try await harness.tgJSON(
            [Item].self, ["--account", "alice", "scheduled", "+9996620092"], eventually: { $0.count == 1 })
        #expect(remaining.map(\.text) == ["in an hour"])
    }
}
