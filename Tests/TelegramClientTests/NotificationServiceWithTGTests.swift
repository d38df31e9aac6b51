import Foundation
import MTProtoCore
import PushNotifications
import TelegramClient
import TestVectors
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The notification extension end to end with the real client, every side a process: tg-server writes push files
/// (`--push-dir`); Alice and Bob sign up with `tg login` in roots of their own (Bob's device registered at sign-in, and
/// again at each online start — checked by giving Bob's account a new notification key first: the pushes decrypt only
/// with the key his `tg chats` registered); Bob's `tg watch-chats --offline` keeps his chat list open; Alice sends
/// three messages with `tg send`; three push files appear; `notification-service --root <Bob's root>` stores each and
/// prints its preview, and Bob's watching `tg` shows each write (the service's `--trace` write time against the
/// watcher's `monotonicNs`); then Bob's `tg history --json` catches up and has each message once. `notification-service`
/// is built with the other products by `swift build --build-tests` (and `make test`).
@Suite struct NotificationServiceWithTGTests {
    struct AccountRecord: Decodable {
        let name: String
        let id: Int64
    }

    static let alicePhone = "9996620101"
    static let bobPhone = "9996620102"

    /// The push files under every device folder of `pushes`, by name (`<owner>-<message id>.json`).
    static func pushFiles(_ pushes: URL) -> [URL] {
        let folders = (try? FileManager.default.contentsOfDirectory(at: pushes, includingPropertiesForKeys: nil)) ?? []
        return folders.flatMap {
            ((try? FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil)) ?? [])
                .filter { $0.pathExtension == "json" }
        }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The watcher's JSON lines decoded so far.
    static func updates(_ output: Data) -> [ChatListUpdate] {
        String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONDecoder().decode(ChatListUpdate.self, from: Data($0.utf8))
        }
    }

    @Test func bobsWatchingTGShowsEachPushTheServiceStoresAndHistoryHasEachMessageOnce() async throws {
        let service = ProcessRunner.builtExecutable("notification-service")
        try #require(
            FileManager.default.isExecutableFile(atPath: service.path),
            "build notification-service first (swift build --build-tests builds every product)")
        let pushes = FileManager.default.temporaryDirectory.appendingPathComponent("tg-pushes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: pushes, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: pushes) }
        let harness = try await CommandLineHarness(serverArguments: ["--push-dir", pushes.path])
        do {
            try await run(harness, service: service, pushes: pushes)
        } catch {
            await harness.close()
            throw error
        }
        await harness.close()
    }

    private func run(_ harness: CommandLineHarness, service: URL, pushes: URL) async throws {
        let bobRoot = harness.root
        let aliceRoot = harness.folder.appendingPathComponent("alice-root").path
        @Sendable func alice(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await ProcessRunner.runOffPool(CommandLineHarness.tg, ["--root", aliceRoot] + arguments, timeout: 30)
        }
        let server = ["--server", harness.serverArgument, "--server-key", harness.keyFile]

        // Both sign up with tg; each root is an installation of its own, registering its device at sign-in.
        let aliceLogin = try await alice(
            ["login", "--account", "alice", "--phone", Self.alicePhone, "--code", "22222", "--first-name", "Alice"]
                + server + ["--json"])
        try #require(aliceLogin.status == 0, "alice's login: \(aliceLogin.errorOutput)")
        let aliceId = try #require(try JSONDecoder().decode(LoginResult.self, from: aliceLogin.stdout).userId)
        let bobLogin = try await harness.tgJSON(
            LoginResult.self,
            ["login", "--account", "bob", "--phone", Self.bobPhone, "--code", "22222", "--first-name", "Bob"] + server)
        #expect(bobLogin.status == "signedIn")

        // A start registers the key again: Bob's account gets a new key, and only `tg chats` (online) tells the server.
        let bobRecord = try #require(
            try await harness.tgJSON([AccountRecord].self, ["accounts"]).first { $0.name == "bob" })
        let keys = NotificationKeyStore(layout: AccountsLayout(rootPath: bobRoot))
        let oldKey = try #require(try keys.entry(accountId: bobRecord.id)).key
        let newKey = NotificationKey.generate()
        try keys.save(newKey, accountId: bobRecord.id)
        let chats = try await harness.tg(["--account", "bob", "chats"])
        #expect(chats.status == 0, "\(chats.errorOutput)")

        // Bob's tg keeps his chat list open in another process, without connecting: only the service's writes reach it.
        let watcher = try harness.startTG(["--account", "bob", "watch-chats", "--offline", "--json", "--for", "30"])
        defer { if watcher.isRunning { watcher.send(SIGKILL) } }
        #expect(await watcher.waitForOutputOffPool(timeout: 15) { !Self.updates($0).isEmpty }, "no first chat list")

        // Alice sends three messages while Bob's app is not online: three push files, for Bob's device only.
        let texts = ["Tối nay ăn phở không?", "Quán cũ nhé", "**7 giờ**"]
        for text in texts {
            let sent = try await alice(["send", "+" + Self.bobPhone, text])
            #expect(sent.status == 0, "alice's send: \(sent.errorOutput)")
        }
        let deadline = Date().addingTimeInterval(10)
        while Self.pushFiles(pushes).count < 3 && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let files = Self.pushFiles(pushes)
        try #require(files.count == 3, "push files: \(files.map(\.lastPathComponent))")
        #expect(Self.updates(watcher.output).count == 1, "the offline watcher changed before the service wrote")
        // The old key is gone from Bob's root: the service can open these pushes only if the server has the new one.
        #expect(try keys.entry(keyId: oldKey.id) == nil && keys.entry(keyId: newKey.id)?.accountId == bobRecord.id)

        // The service stores each push in Bob's Postbox and prints its preview; the watcher shows each write. As in
        // NotificationServiceEndToEndTests: write → view bounded loosely, commit → view (the wake-up) tightly.
        var latencies: [Double] = []
        var wakeUps: [Double] = []
        for (index, file) in files.enumerated() {
            let result = try await ProcessRunner.runOffPool(
                service, ["--root", bobRoot, "--trace", file.path], timeout: 30)
            #expect(result.status == 0, "\(result.errorOutput)")
            #expect(result.output == "Alice: \(texts[index].replacingOccurrences(of: "**", with: ""))\n")
            let trace = result.errorOutput.split(separator: "\n").first { $0.hasPrefix("write-started ") }?
                .split(separator: " ")
            let started = trace.flatMap { $0.count > 1 ? UInt64($0[1]) : nil }
            let committed = trace.flatMap { $0.count > 3 ? UInt64($0[3]) : nil }
            let unread = Int32(index + 1)
            let shown: @Sendable (Data) -> Bool = { output in
                Self.updates(output).contains {
                    $0.chats.first?.chat == "user:\(aliceId)" && $0.chats.first?.unread == unread
                }
            }
            #expect(
                await watcher.waitForOutputOffPool(timeout: 10, until: shown),
                "the watcher did not show \(unread) unread")
            let seen = Self.updates(watcher.output).first { $0.chats.first?.unread == unread }?.monotonicNs
            if let started, let committed, let seen {
                latencies.append(Double(Int64(seen) - Int64(started)) / 1e6)
                wakeUps.append(max(0, Double(Int64(seen) - Int64(committed)) / 1e6))
            }
        }
        let last = Self.updates(watcher.output).last?.chats.first
        #expect(last?.name == "Alice" && last?.lastMessage?.text == "7 giờ")
        watcher.send(SIGINT)
        let ended = await watcher.waitOffPool(timeout: 10)
        #expect(ended.status == 0, "watch-chats on SIGINT: \(ended.errorOutput)")
        print(
            "notification-service write → Bob's watching tg (ms):", latencies.map { String(format: "%.1f", $0) },
            "commit → view:", wakeUps.map { String(format: "%.1f", $0) })
        #expect(latencies.count == 3 && wakeUps.count == 3)
        #expect(wakeUps.sorted()[1] <= 100, "median commit → view \(wakeUps.sorted()[1]) ms")
        #expect(latencies.allSatisfy { $0 >= 0 && $0 < 1000 }, "\(latencies)")

        // Bob's tg starts, catches up (the server's messages replace the pushes' copies) and has each message once.
        let history = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "bob", "history", "user:\(aliceId)"])
        #expect(history.map(\.id) == [1, 2, 3])
        #expect(history.map(\.markdown) == texts)
        #expect(history.allSatisfy { !$0.outgoing && $0.from == "user:\(aliceId)" })

        // Online, as text: the list as opened (`--count 0`), each chat as `tg chats` prints it.
        let online = try await harness.tg(["--account", "bob", "watch-chats", "--count", "0", "--for", "20"])
        #expect(online.status == 0, "\(online.errorOutput)")
        let lines = online.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("chat-list ") && lines[0].hasSuffix(" 1"), "\(lines)")
        #expect(lines.last == "  user:\(aliceId)  Alice (3 unread): 7 giờ", "\(lines)")

        // Registering never fails a command: without a notification key, an online command still succeeds.
        try keys.remove(accountId: bobRecord.id)
        let withoutKey = try await harness.tg(["--account", "bob", "chats", "--json"])
        #expect(withoutKey.status == 0, "\(withoutKey.errorOutput)")
    }
}
