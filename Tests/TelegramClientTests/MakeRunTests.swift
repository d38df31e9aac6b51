import Foundation
import ImageCore
import ServerStore
import TelegramClient
import TestVectors
import Testing

/// `make run`'s conversation (`BuildTools/scripts/run-tg.sh`) as a test: the script runs with the `tg` and
/// `tg-server` this test build made (`TG_BIN`) and keeps its data (`--dir`); then the test restarts tg-server on that
/// data at other ports, moves each account there (`tg login --server`, as the README tells a user to continue), reads
/// each account's Postbox through `tg --json` — Alice's and Bob's sides, and Bob's second device equal to Bob — and
/// opens what tg-server stored through ServerStore.
@Suite(.serialized) struct MakeRunTests {
    @Test func theRunScriptPlaysTheWholeConversation() async throws {
        let tg = ProcessRunner.builtExecutable("tg")
        let tgServer = ProcessRunner.builtExecutable("tg-server")
        for tool in [tg, tgServer] {
            try #require(
                FileManager.default.isExecutableFile(atPath: tool.path), "build \(tool.lastPathComponent) first")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("make-run-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dir = folder.appendingPathComponent("run")
        let script = Fixtures.repositoryRoot.appendingPathComponent("BuildTools/scripts/run-tg.sh")
        let run = try await ProcessRunner.runOffPool(
            URL(fileURLWithPath: "/bin/bash"), [script.path, "--dir", dir.path],
            environment: ["TG_BIN": tg.deletingLastPathComponent().path, "COLUMNS": "70"], timeout: 240)
        let output = run.output
        try #require(run.status == 0 && !run.timedOut, "run-tg.sh exited \(run.status): \(output)\n\(run.errorOutput)")

        // What it printed, step by step.
        for line in [
            "tg-server: ready dc1=", "alice signed up: +9996610001 (DC 1, via PHONE_MIGRATE_1)", "bob signed up",
            "alice takes @alice_demo; bob takes @bob_demo", "bob's second device signed in",
            "alice → @bob_demo (found by username: Bob): **Hi Bob!**", "(reply to ", "album of 3 photos",
            "sticker 🟢 (WebP)", "sticker 🔷 (animated .tgs)", "voice note", "alice searches \"pho\":",
            "found [8] from Bob", "phở", "bob's second device saw 8 new messages",
            "bob reads the chat: alice's messages are ✓✓ (read by bob: 6 of 6)",
            "alice types to @bob_demo (messages.setTyping); bob's client shows: typing user:", "Alice is typing…",
            "alice starts a secret chat with @bob_demo: secret:", "accepted by bob's running client",
            "The table is under the lantern 🏮", "received it: [", "Alice: The table is under the lantern",
            "the key visualizations match: ", "alice creates the channel channel:", "public as @alice_notes",
            "**Phở** at 8, by the lake", "bob joins @alice_notes by its username",
            "bob reads it: [", "Alice's Hanoi notes: **Phở** at 8, by the lake", "(👁 1)",
            "alice forwards bob's reply 2 into channel:", "(forwarded from Bob) Sure!",
            "and the forward: [", "Forwarded from Bob",
            "tg-server stopped cleanly; done",
            "--root \(dir.path)/alice",
        ] {
            #expect(output.contains(line), "the transcript lacks \(line)")
        }
        #expect(output.contains("╭") && output.contains("Hồ Hoàn Kiếm"), "no chat drawn in the terminal")
        #expect(output.hasPrefix("["), "the first line is a timed step: \(output.prefix(80))")
        #expect(!output.contains("DIFFER"), "the key visualizations differ")
        let secretChat = try #require(
            output.firstMatch(of: /secret chat with @bob_demo: (secret:[0-9]+)/).map { String($0.1) },
            "no secret chat in the transcript")

        // The PNGs: phone screens 360 points wide at 2×, at least 800 points tall, every row shown.
        for side in ["alice", "bob"] {
            let path = dir.appendingPathComponent("\(side).png").path
            #expect(output.contains(path))
            let png = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(png.width == 720 && png.height >= 1600, "\(side).png is \(png.width)×\(png.height)")
            #expect(png[20, 20] == RGBA(r: 0xF7, g: 0xF7, b: 0xF7, a: 255), "\(side).png's navigation bar")
        }

        // Each account's Postbox, through tg, once tg-server runs again on the same data (at other ports).
        let server = try ProcessRunner.start(
            tgServer, ["--port", "0", "--data-dir", dir.appendingPathComponent("server").path])
        let ready = await server.waitForOutputOffPool(timeout: 30) {
            String(decoding: $0, as: UTF8.self).contains("ready")
        }
        try #require(ready, "tg-server did not start again on the kept data")
        let readyLine =
            String(decoding: server.output, as: UTF8.self).split(separator: "\n").first { $0.contains("ready") } ?? ""
        let address =
            "127.0.0.1:"
            + readyLine.split(separator: " ").filter { $0.hasPrefix("dc") }.map { $0.dropFirst(2) }
            .joined(separator: ",")
        func tgJSON<T: Decodable>(_ root: String, _ arguments: [String], as type: T.Type) async throws -> T {
            let result = try await ProcessRunner.runOffPool(
                tg, ["--root", dir.appendingPathComponent(root).path] + arguments + ["--json"], timeout: 60)
            try #require(result.status == 0, "tg --root \(root) \(arguments): \(result.errorOutput)")
            return try JSONDecoder().decode(T.self, from: result.stdout)
        }
        do {
            for (root, account) in [("alice", "alice"), ("bob", "bob"), ("bob2", "bob")] {
                let moved = try await tgJSON(
                    root, ["login", "--account", account, "--server", address], as: LoginResult.self)
                #expect(moved.status == "signedIn", "\(root) did not follow the server to \(address)")
            }
            let alice = try await tgJSON("alice", ["history", "@bob_demo"], as: [MessageSummary].self)
            let bob = try await tgJSON("bob", ["history", "@alice_demo"], as: [MessageSummary].self)
            let bob2 = try await tgJSON("bob2", ["history", "@alice_demo"], as: [MessageSummary].self)
            checkSides(alice: alice, bob: bob, bob2: bob2)
            // The secret chat: Bob holds Alice's message; both show the same key visualization.
            let secretAlice = try await tgJSON("alice", ["history", secretChat], as: [MessageSummary].self)
            let secretBob = try await tgJSON("bob", ["history", secretChat], as: [MessageSummary].self)
            #expect(
                secretAlice.map(\.text) == ["The table is under the lantern 🏮"] && secretAlice.first?.outgoing == true)
            #expect(secretBob.map(\.text) == secretAlice.map(\.text) && secretBob.first?.fromName == "Alice")
            #expect(secretBob.first?.chatName == "🔒 Alice", "\(secretBob)")
            let aliceKey = try await tgJSON("alice", ["secret-key", secretChat], as: SecretChatKeySummary.self)
            let bobKey = try await tgJSON("bob", ["secret-key", secretChat], as: SecretChatKeySummary.self)
            #expect(aliceKey == bobKey && aliceKey.identicon.count == 12 && aliceKey.emoji.count == 4)
            #expect(output.contains(aliceKey.identicon[0]) && output.contains(aliceKey.emoji.joined(separator: " ")))
        } catch {
            server.send(SIGTERM)
            _ = await server.waitOffPool(timeout: 30)
            throw error
        }
        server.send(SIGTERM)
        let stopped = await server.waitOffPool(timeout: 30)
        #expect(stopped.status == 0, "tg-server did not stop cleanly")

        // What tg-server stored: the users with their usernames and DCs, Bob's two devices, both message boxes.
        let store = try ServerStore(path: dir.appendingPathComponent("server/server.sqlite").path)
        try store.read { tx in
            let alice = try #require(try tx.user(username: "alice_demo"))
            let bob = try #require(try tx.user(username: "bob_demo"))
            #expect(alice.phone == "9996610001" && alice.dc == 1 && alice.firstName == "Alice")
            #expect(bob.phone == "9996620002" && bob.dc == 2 && bob.firstName == "Bob")
            #expect(try tx.authorizations(userId: bob.id).count >= 2, "Bob's second device has its own key")
            let sent = try tx.history(owner: alice.id, peer: .user(bob.id), HistoryQuery(limit: 50)).reversed()
                .map { $0 }
            let received = try tx.history(owner: bob.id, peer: .user(alice.id), HistoryQuery(limit: 50)).reversed()
                .map { $0 }
            #expect(sent.count == 8 && received.count == 8)
            #expect(sent.map(\.globalId) == received.map(\.globalId), "each message in both boxes")
            #expect(sent.map(\.outgoing) == [true, false, true, true, true, true, true, false])
            // mediaKind: 0 text, 1 photo, 3 voice, 4 sticker.
            #expect(sent.map(\.mediaKind) == [0, 0, 1, 1, 1, 4, 4, 3])
            #expect(sent[0].text.hasPrefix("Hi Bob!") && sent[0].entities != nil)
            #expect(received[1].replyTo == received[0].id && sent[1].replyTo == sent[0].id)
            let album = Set(sent[2...4].map(\.groupedId))
            #expect(album.count == 1 && album.first! != nil)
            #expect(sent[7].text == "Tối nay ăn phở không?")
        }
    }

    /// Alice's and Bob's sides of the chat, and Bob's second device holding exactly Bob's.
    func checkSides(alice: [MessageSummary], bob: [MessageSummary], bob2: [MessageSummary]) {
        #expect(alice.count == 8 && bob.count == 8, "\(alice.map(\.markdown)) / \(bob.map(\.markdown))")
        #expect(alice.map(\.outgoing) == [true, false, true, true, true, true, true, false])
        #expect(bob.map(\.outgoing) == alice.map { !$0.outgoing })
        #expect(alice.filter(\.outgoing).allSatisfy { $0.read == true }, "bob read the chat: \(alice.map(\.read))")
        #expect(alice.map { $0.media?.kind } == [nil, nil, "photo", "photo", "photo", "sticker", "sticker", "voice"])
        #expect(bob.map { $0.media?.kind } == alice.map { $0.media?.kind })
        guard alice.count == 8, bob.count == 8 else { return }
        #expect(alice[0].entities.map(\.type) == ["bold", "textUrl", "code", "italic"], "\(alice[0].entities)")
        #expect(bob[0].markdown == alice[0].markdown && bob[0].fromName == "Alice")
        #expect(bob[1].replyTo == bob[0].id && alice[1].replyTo == alice[0].id)
        #expect(
            alice[2].album != nil && Set(alice[2...4].map(\.album)).count == 1
                && alice[2].text == "Hồ Hoàn Kiếm at dusk")
        #expect(alice[5].media?.mimeType == "image/webp" && alice[6].media?.mimeType == "application/x-tgsticker")
        #expect(alice[7].text == "Tối nay ăn phở không?" && (alice[7].media?.duration ?? 0) >= 1)
        // The second device: the same messages, ids, sides, text, media and replies.
        struct Seen: Equatable {
            let id: Int32
            let outgoing: Bool
            let markdown: String
            let kind: String?
            let replyTo: Int32?
            let inAlbum: Bool
        }
        func seen(_ side: [MessageSummary]) -> [Seen] {
            side.map {
                Seen(
                    id: $0.id, outgoing: $0.outgoing, markdown: $0.markdown, kind: $0.media?.kind, replyTo: $0.replyTo,
                    inAlbum: $0.album != nil)
            }
        }
        #expect(seen(bob2) == seen(bob))
    }
}
