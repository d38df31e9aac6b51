import Foundation
import TelegramClient
import TestVectors
import Testing

/// A running client comes back from a server restart by itself, as Telegram's clients survive a data center's
/// restart: Bob's `tg watch` runs, tg-server is killed with SIGKILL (its sessions and the connections it pushed to are
/// gone) and started again on the same data and ports, and a message Alice sends after the restart shows in Bob's
/// still-running watch within 5 s — his client reconnected, took the server's new session (`new_session_created`,
/// whose seq_nos start again) and fetched the difference.
@Suite(.serialized) struct ServerRestartTests {
    @Test func aRunningWatchSeesAMessageSentAfterTheServerRestarted() async throws {
        try await CommandLineHarness.with(restartable: true, restart)
    }

    func restart(_ harness: CommandLineHarness) async throws {
        let people = [("alice", "9996610071", "11111", "Alice"), ("bob", "9996620072", "22222", "Bob")]
        for (account, phone, code, name) in people {
            let login = try await harness.tgJSON(
                LoginResult.self,
                [
                    "login", "--account", account, "--phone", phone, "--code", code, "--first-name", name, "--server",
                    harness.serverArgument, "--server-key", harness.keyFile,
                ])
            #expect(login.status == "signedIn", "\(account): \(login)")
        }
        _ = try await harness.tgJSON([String: String?].self, ["--account", "bob", "username", "bob_restart"])

        let watch = try await harness.startWatch(account: "bob", seconds: 90)
        // Before the restart: the watch works, and its session has heard from the server (seq_nos to compare with).
        _ = try await harness.tgJSON(
            MessageSummary.self, ["--account", "alice", "send", "@bob_restart", "before the restart"])
        let sentBefore = Date()
        let before = await watch.waitForOutputOffPool(timeout: 15) {
            String(decoding: $0, as: UTF8.self).contains("before the restart")
        }
        try #require(
            before, "Bob's watch did not print the first message: \(String(decoding: watch.output, as: UTF8.self))")
        let beforeTook = Date().timeIntervalSince(sentBefore)

        let killed = Date()
        try await harness.restartServer()
        let down = Date().timeIntervalSince(killed)

        // The 5 s run from the moment the server has the message (Alice's `tg send` has its answer).
        _ = try await harness.tgJSON(
            MessageSummary.self, ["--account", "alice", "send", "@bob_restart", "after the restart"])
        let sent = Date()
        let after = await watch.waitForOutputOffPool(timeout: 5) {
            String(decoding: $0, as: UTF8.self).contains("after the restart")
        }
        let waited = Date().timeIntervalSince(sent)
        print(
            "ServerRestartTests: before the restart a message reached Bob's watch \(seconds(beforeTook)) after it "
                + "was sent; tg-server was down \(seconds(down)); after it \(seconds(waited))")
        #expect(
            after,
            """
            Bob's watch did not print the message sent after the restart within 5 s (waited \(seconds(waited))): \
            \(String(decoding: watch.output, as: UTF8.self))
            """
        )
        watch.send(SIGINT)
        let ended = await watch.waitOffPool(timeout: 30)
        #expect(ended.status == 0, "\(ended.errorOutput)")
    }

    private func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }
}
