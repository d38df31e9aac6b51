import Foundation
import TelegramClient
import TestVectors
import Testing

/// Muting as real `tg` processes of our accounts against a `tg-server` process: Bob mutes Alice's chat for 8 hours
/// (`chats` shows `🔇` after her name, `muted` in `--json`), unmutes it, mutes it forever; a bad duration is a usage
/// error (exit 2).
@Suite(.serialized) struct MuteCommandTests {
    struct Muted: Decodable {
        let chat: String
        let muteUntil: Int32
    }

    struct ChatRow: Decodable {
        let chat: String
        let muted: Bool
    }

    @Test func bobMutesAndUnmutesAlice() async throws {
        try await CommandLineHarness.with(muting)
    }

    func muting(_ harness: CommandLineHarness) async throws {
        for (command, text) in [("mute", "forever"), ("unmute", "mute_until 0")] {
            let help = try await harness.tg([command, "--help"])
            #expect(help.status == 0 && help.output.contains(text), "tg \(command) --help: \(help.output)")
        }
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
        _ = try await harness.tgJSON(MessageSummary.self, ["--account", "alice", "send", "+9996620094", "hi"])
        _ = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "bob", "history", "+9996610093"],
            eventually: { $0.contains { $0.text == "hi" } })
        let bad = try await harness.tg(["--account", "bob", "mute", "+9996610093", "8x"])
        #expect(bad.status == 2 && bad.errorOutput.contains("not a duration"), "\(bad.errorOutput)")

        let before = Int32(Date().timeIntervalSince1970)
        let muted = try await harness.tgJSON(Muted.self, ["--account", "bob", "mute", "+9996610093", "8h"])
        let after = Int32(Date().timeIntervalSince1970)
        #expect((before + 8 * 3600...after + 8 * 3600).contains(muted.muteUntil), "\(muted)")
        let rows = try await harness.tgJSON([ChatRow].self, ["--account", "bob", "chats"])
        #expect(rows.filter(\.muted).count == 1, "\(rows)")
        let line = try await harness.tg(["--account", "bob", "chats"])
        #expect(line.output.contains("Alice 🔇"), "\(line.output)")
        // Alice's own list is not muted: the settings are Bob's.
        #expect(try await harness.tgJSON([ChatRow].self, ["--account", "alice", "chats"]).allSatisfy { !$0.muted })

        let unmuted = try await harness.tg(["--account", "bob", "unmute", "+9996610093"])
        #expect(unmuted.status == 0 && unmuted.output.contains("unmuted Alice"), "\(unmuted.output)")
        #expect(try await harness.tgJSON([ChatRow].self, ["--account", "bob", "chats"]).allSatisfy { !$0.muted })
        let forever = try await harness.tg(["--account", "bob", "mute", "+9996610093", "forever"])
        #expect(forever.status == 0 && forever.output.contains("muted Alice forever"), "\(forever.output)")
        let again = try await harness.tg(["--account", "bob", "chats"])
        #expect(again.output.contains("Alice 🔇"), "\(again.output)")
    }
}
