import Foundation
import TelegramClient
import TestVectors
import Testing

/// Forwards as real `tg` processes against a `tg-server` process, with Telethon 1.45 as Bob: Bob forwards Alice's
/// message to Carol, whose `history --json` and `render` say "Forwarded from Alice" (a user Carol never talked to,
/// stored from the message's users); Carol's `tg forward` of it reaches Bob still naming Alice, her forward of her own
/// message names her, and `--hide-author` sends a plain copy. Once Alice hides her forwards (`tg privacy forwards
/// nobody`), Bob's forward of her reaches Carol with her name only, drawn unlinked.
@Suite(.serialized) struct ForwardCommandTests {
    static let bob = "9996620093"

    struct Forwarded: Decodable { let ids: [Int32] }

    @Test func forwardsBothWaysWithTelethon() async throws {
        let harness = try await CommandLineHarness(peerPhone: Self.bob, peerUsername: "bob_fwd")
        do {
            try await forwards(harness)
        } catch {
            await harness.close()
            throw error
        }
        await harness.close()
    }

    func forwards(_ harness: CommandLineHarness) async throws {
        let help = try await harness.tg(["forward", "--help"])
        #expect(help.status == 0 && help.output.contains("--hide-author"), "\(help.output)")
        var users: [String: Int64] = [:]
        for (account, phone, name) in [("alice", "9996610091", "Alice"), ("carol", "9996610092", "Carol")] {
            let login = try await harness.tgJSON(
                LoginResult.self,
                [
                    "login", "--account", account, "--phone", phone, "--code", "11111", "--first-name", name,
                    "--server", harness.serverArgument, "--server-key", harness.keyFile,
                ])
            #expect(login.status == "signedIn", "\(account): \(login)")
            users[account] = login.userId
        }
        let alice = try #require(users["alice"]), carol = try #require(users["carol"])

        // Alice writes Bob; Bob forwards it to Carol.
        _ = try await harness.tgJSON(MessageSummary.self, ["--account", "alice", "send", "@bob_fwd", "the plan"])
        let bobsView = try await harness.peer(PeerMessages.self, ["op": "messages", "to": "9996610091", "limit": 1])
        let plan = try #require(bobsView.messages.first { $0.text == "the plan" })
        let forwarded = try await harness.peer(
            Forwarded.self, ["op": "forward", "from": "9996610091", "ids": [plan.id], "to": "9996610092"])
        try #require(forwarded.ids.count == 1)

        // Carol stores Telethon's forward with its header, and names Alice.
        let history = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "carol", "history", "@bob_fwd"],
            eventually: { $0.contains { $0.text == "the plan" } })
        let received = try #require(history.first { $0.text == "the plan" }, "\(history)")
        #expect(received.forwardedFrom == "user:\(alice)" && received.forwardedFromName == "Alice", "\(received)")
        #expect(received.fromName == "Bob" && !received.outgoing)
        let line = try await harness.tg(["--account", "carol", "history", "@bob_fwd"])
        #expect(line.output.contains("(forwarded from Alice) the plan"), "\(line.output)")
        let drawn = try await harness.tg(["--account", "carol", "render", "@bob_fwd", "--plain", "--width", "60"])
        #expect(drawn.status == 0 && drawn.output.contains("Forwarded from Alice"), "\(drawn.output)")
        let png = harness.folder.appendingPathComponent("carol.png").path
        let rendered = try await harness.tg(["--account", "carol", "render", "@bob_fwd", "--png", png])
        #expect(rendered.status == 0 && FileManager.default.fileExists(atPath: png), "\(rendered.errorOutput)")

        // Carol forwards it back to Bob: the header still names Alice. Then her own words, named and hidden.
        let again = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "carol", "forward", "@bob_fwd", String(received.id), "@bob_fwd"])
        #expect(again.count == 1 && again.first?.forwardedFrom == "user:\(alice)" && again.first?.unsent == false)
        let own = try await harness.tgJSON(MessageSummary.self, ["--account", "carol", "send", "@bob_fwd", "mine"])
        let named = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "carol", "forward", "@bob_fwd", String(own.id), "@bob_fwd"])
        #expect(named.first?.forwardedFrom == "user:\(carol)" && named.first?.forwardedFromName == "Carol")
        let plain = try await harness.tgJSON(
            [MessageSummary].self,
            ["--account", "carol", "forward", "@bob_fwd", String(own.id), "@bob_fwd", "--hide-author"])
        #expect(plain.first?.forwardedFrom == nil && plain.first?.text == "mine", "\(plain)")
        let refused = try await harness.tg(["--account", "carol", "forward", "@bob_fwd", "99999", "@bob_fwd"])
        #expect(refused.status != 0 && refused.errorOutput.contains("99999"), "\(refused.errorOutput)")

        // Bob sees each header as Telethon reads it.
        let seen = try await harness.peer(PeerMessages.self, ["op": "messages", "to": "9996610092", "limit": 5])
            .messages.filter { !$0.out }.reversed().map { ($0.text, $0.fwd_from) }
        #expect(
            seen.map(\.0) == ["the plan", "mine", "mine", "mine"] && seen.map(\.1) == [alice, nil, carol, nil],
            "\(seen)")

        // Alice hides her forwards (inputPrivacyKeyForwards): Bob's forward of her next words reaches Carol naming
        // her by name only (fwd_from.from_name, no from_id), stored and drawn as "Forwarded from Alice".
        let hide = try await harness.tg(["--account", "alice", "privacy", "forwards", "nobody", "--json"])
        #expect(hide.status == 0 && hide.output.contains("\"nobody\""), "\(hide.output) \(hide.errorOutput)")
        _ = try await harness.tgJSON(MessageSummary.self, ["--account", "alice", "send", "@bob_fwd", "the secret"])
        let bobsLatest = try await harness.peer(PeerMessages.self, ["op": "messages", "to": "9996610091", "limit": 1])
        let secret = try #require(bobsLatest.messages.first { $0.text == "the secret" })
        _ = try await harness.peer(
            Forwarded.self, ["op": "forward", "from": "9996610091", "ids": [secret.id], "to": "9996610092"])
        let later = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "carol", "history", "@bob_fwd"],
            eventually: { $0.contains { $0.text == "the secret" } })
        let hidden = try #require(later.first { $0.text == "the secret" }, "\(later)")
        #expect(hidden.forwardedFrom == nil && hidden.forwardedFromName == "Alice", "\(hidden)")
        let drawnHidden = try await harness.tg(["--account", "carol", "render", "@bob_fwd", "--plain", "--width", "60"])
        #expect(drawnHidden.output.contains("Forwarded from Alice"), "\(drawnHidden.output)")
    }
}
