import Foundation
import TelegramClient
import TestVectors
import Testing

/// Reactions and drafts as real `tg` processes of our accounts against a `tg-server` process: Bob reacts to Alice's
/// message (an unknown emoji is refused, exit 6) and Alice's `history --json` shows it, not hers; Bob takes it back;
/// Alice saves a draft, `chats` shows `Draft: …`, and her message to the chat clears it.
@Suite(.serialized) struct ReactionDraftCommandTests {
    struct Reacted: Decodable {
        let chat: String
        let id: Int32
        let reactions: [ReactionSummary]
    }

    struct Drafted: Decodable {
        let chat: String
        let draft: String?
    }

    struct ChatRow: Decodable {
        let chat: String
        let draft: String?
    }

    @Test func bobReactsAndAliceKeepsADraft() async throws {
        try await CommandLineHarness.with(reactionsAndDrafts)
    }

    func reactionsAndDrafts(_ harness: CommandLineHarness) async throws {
        for (command, option) in [("react", "--remove"), ("draft", "--clear")] {
            let help = try await harness.tg([command, "--help"])
            #expect(help.status == 0 && help.output.contains(option), "tg \(command) --help: \(help.output)")
        }
        for (account, phone, name) in [("alice", "9996610083", "Alice"), ("bob", "9996620084", "Bob")] {
            let login = try await harness.tgJSON(
                LoginResult.self,
                [
                    "login", "--account", account, "--phone", phone, "--code",
                    String(repeating: String(phone.dropFirst(5).prefix(1)), count: 5),
                    "--first-name", name, "--server", harness.serverArgument, "--server-key", harness.keyFile,
                ])
            #expect(login.status == "signedIn", "\(account): \(login)")
        }
        let lunch = try await harness.tgJSON(
            MessageSummary.self, ["--account", "alice", "send", "+9996620084", "lunch?"])

        // Bob reacts: refused for an emoji that is not a reaction, then 👍.
        _ = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "bob", "history", "+9996610083"],
            eventually: { $0.contains { $0.text == "lunch?" } })
        let refused = try await harness.tg(["--account", "bob", "react", "+9996610083", String(lunch.id), "🦖"])
        #expect(refused.status == 6 && refused.errorOutput.contains("REACTION_INVALID"), "\(refused.errorOutput)")
        let reacted = try await harness.tgJSON(
            Reacted.self, ["--account", "bob", "react", "+9996610083", String(lunch.id), "👍"])
        #expect(reacted.id == lunch.id && reacted.reactions == [ReactionSummary(emoji: "👍", count: 1, chosen: true)])
        let plain = try await harness.tg(["--account", "bob", "react", "+9996610083", String(lunch.id), "👍"])
        #expect(plain.status == 0 && plain.output.contains("[👍1]"), "\(plain.output)")

        // Alice's history shows it, not hers.
        let alices = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "alice", "history", "+9996620084"],
            eventually: { $0.first { $0.id == lunch.id }?.reactions.isEmpty == false })
        #expect(
            alices.first { $0.id == lunch.id }?.reactions == [ReactionSummary(emoji: "👍", count: 1, chosen: false)],
            "\(alices.map(\.reactions))")
        let removed = try await harness.tgJSON(
            Reacted.self, ["--account", "bob", "react", "+9996610083", String(lunch.id), "--remove"])
        #expect(removed.reactions.isEmpty)
        let after = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "alice", "history", "+9996620084"],
            eventually: { $0.first { $0.id == lunch.id }?.reactions.isEmpty == true })
        #expect(after.first { $0.id == lunch.id }?.reactions.isEmpty == true)

        // Alice's draft: in the chat list until she sends there.
        let drafted = try await harness.tgJSON(
            Drafted.self, ["--account", "alice", "draft", "+9996620084", "see you at **noon**"])
        #expect(drafted.draft == "see you at **noon**")
        let chats = try await harness.tgJSON([ChatRow].self, ["--account", "alice", "chats"])
        #expect(chats.first { $0.chat == lunch.chat }?.draft == "see you at noon", "\(chats)")
        let line = try await harness.tg(["--account", "alice", "chats"])
        #expect(line.output.contains("Draft: see you at noon"), "\(line.output)")
        _ = try await harness.tgJSON(MessageSummary.self, ["--account", "alice", "send", "+9996620084", "noon!"])
        let cleared = try await harness.tgJSON([ChatRow].self, ["--account", "alice", "chats"])
        #expect(cleared.first { $0.chat == lunch.chat }?.draft == nil, "\(cleared)")
        let again = try await harness.tgJSON(Drafted.self, ["--account", "alice", "draft", "+9996620084", "later"])
        #expect(again.draft == "later")
        let gone = try await harness.tgJSON(Drafted.self, ["--account", "alice", "draft", "+9996620084", "--clear"])
        #expect(gone.draft == nil)
        #expect(
            try await harness.tgJSON([ChatRow].self, ["--account", "alice", "chats"]).first { $0.chat == lunch.chat }?
                .draft == nil)
    }
}
