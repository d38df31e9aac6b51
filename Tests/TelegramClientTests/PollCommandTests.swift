import Foundation
import TelegramClient
import TestVectors
import Testing

/// Places, contacts, dice and polls as real `tg` processes of our accounts against a `tg-server` process: Alice sends
/// a venue, a contact, a die and a quiz; Bob's `history --json` has them with their fields; Bob answers the quiz wrong
/// (a second answer is refused, exit 6) and sees the right one; `render` draws the cards.
@Suite(.serialized) struct PollCommandTests {
    struct Voted: Decodable {
        let chat: String
        let id: Int32
        let poll: PollSummary
    }

    @Test func aliceSendsCardsAndBobVotes() async throws {
        try await CommandLineHarness.with(cardsAndVotes)
    }

    func cardsAndVotes(_ harness: CommandLineHarness) async throws {
        let sendHelp = try await harness.tg(["send", "--help"])
        #expect(sendHelp.status == 0 && sendHelp.output.contains("--poll") && sendHelp.output.contains("--location"))
        let voteHelp = try await harness.tg(["vote", "--help"])
        #expect(voteHelp.status == 0 && voteHelp.output.contains("--retract"), "\(voteHelp.output)")
        for (account, phone, name) in [("alice", "9996610093", "Alice"), ("bob", "9996620094", "Bob")] {
            let login = try await harness.tgJSON(
                LoginResult.self,
                [
                    "login", "--account", account, "--phone", phone, "--code",
                    String(repeating: String(phone.dropFirst(5).prefix(1)), count: 5),
                    "--first-name", name, "--server", harness.serverArgument, "--server-key", harness.keyFile,
                ])
            #expect(login.status == "signedIn", "\(account): \(login)")
        }
        let badPoll = try await harness.tg(["--account", "alice", "send", "+9996620094", "--poll", "Q?", "only"])
        #expect(badPoll.status != 0, "\(badPoll.output)")
        let venue = try await harness.tgJSON(
            MessageSummary.self,
            [
                "--account", "alice", "send", "+9996620094", "--location", "21.0285,105.8542", "--venue",
                "Hồ Hoàn Kiếm", "--address", "Hà Nội",
            ])
        #expect(venue.media?.kind == "venue" && venue.media?.title == "Hồ Hoàn Kiếm" && venue.media?.latitude == 21.0285)
        let contact = try await harness.tgJSON(
            MessageSummary.self, ["--account", "alice", "send", "+9996620094", "--contact", "+84243825555", "Lan", "Trần"])
        #expect(contact.media?.kind == "contact" && contact.media?.lastName == "Trần")
        let dice = try await harness.tgJSON(
            MessageSummary.self, ["--account", "alice", "send", "+9996620094", "--dice", "🎰"])
        #expect(dice.media?.kind == "dice" && (1...64).contains(dice.media?.value ?? 0))
        let quiz = try await harness.tgJSON(
            MessageSummary.self,
            [
                "--account", "alice", "send", "+9996620094", "--poll", "Where is phở from?", "Huế", "Nam Định",
                "--quiz", "2", "--solution", "Nam Định",
            ])
        #expect(quiz.media?.poll?.quiz == true && quiz.media?.poll?.options.map(\.text) == ["Huế", "Nam Định"])

        // Bob sees them all, the quiz without its answer.
        let bobs = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "bob", "history", "+9996610093"],
            eventually: { $0.contains { $0.media?.kind == "poll" } })
        #expect(bobs.compactMap(\.media?.kind) == ["venue", "contact", "dice", "poll"], "\(bobs.map(\.media))")
        let bobsQuiz = try #require(bobs.first { $0.media?.kind == "poll" })
        #expect(bobsQuiz.media?.poll?.options.allSatisfy { !$0.correct && $0.voters == nil } == true)

        // Bob answers wrong, once.
        let voted = try await harness.tgJSON(
            Voted.self, ["--account", "bob", "vote", "+9996610093", String(bobsQuiz.id), "1"])
        #expect(voted.poll.options.map(\.chosen) == [true, false] && voted.poll.options.map(\.correct) == [false, true])
        #expect(voted.poll.options.map(\.voters) == [1, 0] && voted.poll.solution == "Nam Định")
        let again = try await harness.tg(["--account", "bob", "vote", "+9996610093", String(bobsQuiz.id), "2"])
        #expect(again.status == 6 && again.errorOutput.contains("REVOTE_NOT_ALLOWED"), "\(again.errorOutput)")

        // Alice's history asks for the results: one vote.
        let alices = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "alice", "history", "+9996620094"],
            eventually: { $0.first { $0.id == quiz.id }?.media?.poll?.totalVoters == 1 })
        #expect(alices.first { $0.id == quiz.id }?.media?.poll?.totalVoters == 1)
        let line = try await harness.tg(["--account", "bob", "history", "+9996610093"])
        #expect(line.output.contains("[dice 🎰") && line.output.contains("1. Huế 1 ✗, 2. Nam Định 0 ✓"), "\(line.output)")
        let drawn = try await harness.tg(["--account", "bob", "render", "+9996610093"])
        #expect(drawn.status == 0, "\(drawn.errorOutput)")
        #expect(drawn.output.contains("📍 21.02850, 105.85420") && drawn.output.contains("👤 Lan Trần"), "\(drawn.output)")
        #expect(drawn.output.contains("✗ 100% Huế") && drawn.output.contains("✓ 0% Nam Định"), "\(drawn.output)")
    }
}
