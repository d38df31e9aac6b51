import Foundation
import ImageCore
import MediaTestSupport
import TelegramClient
import TestVectors
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The interactive client for real, in tmux (terminals of 100×30 on a tmux server of the test's own): `tg` alone opens
/// it; Alice sees Bob's chat with its unread count and "online" in the title, opens it (Bob "online" in its title, as
/// his open client says), types markdown and sends;
/// Bob's interactive client shows her message arriving; both leave (Ctrl-C, and SIGTERM) with the terminal restored
/// and exit status 0; Bob's stored copy carries the bold entity. Every wait polls the captured screen with a deadline,
/// and the tmux server is killed at the end.
@Suite(.serialized) struct InteractiveTmuxTests {
    static let tmuxPath = "/usr/bin/tmux"

    /// A tmux server of the test's own: started in the foreground (`-D`, a child of this process, not a daemon) on a
    /// socket in the test's folder.
    final class Tmux: Sendable {
        let socket: String
        let server: RunningProcess

        init(socket: String) async throws {
            self.socket = socket
            server = try ProcessRunner.start(
                URL(fileURLWithPath: InteractiveTmuxTests.tmuxPath), ["-S", socket, "-f", "/dev/null", "-D"],
                environment: ["TMUX": nil])
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: socket) {
                try #require(Date() < deadline && server.isRunning, "the tmux server did not start")
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        @discardableResult
        func run(_ arguments: [String]) async throws -> ProcessRunner.Result {
            try await ProcessRunner.runOffPool(
                URL(fileURLWithPath: InteractiveTmuxTests.tmuxPath), ["-S", socket, "-f", "/dev/null"] + arguments,
                environment: ["TMUX": nil], timeout: 20)
        }

        /// Starts `command` (run by sh) in a detached 100×30 session `name`; after it the shell prints its exit
        /// status and whether the terminal is back in canonical mode with echo, then waits to be captured.
        func start(_ name: String, _ command: [String]) async throws {
            let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
                separator: " ")
            let script =
                "\(quoted); echo \"tg exited $?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e icanon; echo \"tty checked\"; sleep 120"
            let result = try await run([
                "new-session", "-d", "-s", name, "-x", "100", "-y", "30", "-e", "TERM=xterm-256color", "sh", "-c",
                script,
            ])
            try #require(result.succeeded, "tmux new-session: \(result.errorOutput)")
        }

        func screen(_ name: String) async throws -> String {
            try await run(["capture-pane", "-p", "-t", name]).output
        }

        func keys(_ name: String, literal: String) async throws {
            try #require(try await run(["send-keys", "-t", name, "-l", literal]).succeeded)
        }

        func keys(_ name: String, _ keys: String...) async throws {
            try #require(try await run(["send-keys", "-t", name] + keys).succeeded)
        }

        /// Waits (at most `timeout` s) until the screen of `name` satisfies `condition`; returns the screen.
        @discardableResult
        func waitFor(
            _ name: String, _ what: String, timeout: Double = 30, _ condition: (String) -> Bool
        ) async throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            var screen = ""
            while Date() < deadline {
                screen = try await self.screen(name)
                if condition(screen) { return screen }
                try await Task.sleep(for: .milliseconds(100))
            }
            Issue.record("\(name)'s screen never showed \(what) within \(timeout) s; it shows:\n\(screen)")
            throw CancellationError()
        }

        /// The pid of the program the pane's shell runs (its only child).
        func childOfPane(_ name: String) async throws -> Int32 {
            let shell = try await run(["display-message", "-p", "-t", name, "#{pane_pid}"]).output
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
            return try #require(children.split(separator: " ").first.flatMap { Int32($0) }, "no child of the pane")
        }

        /// Ends the server and every pane's program.
        func kill() async {
            _ = try? await run(["kill-server"])
            if await server.waitOffPool(timeout: 10).timedOut { server.send(SIGKILL) }
        }
    }

    /// Runs `body` with a fresh `tg` harness and a tmux server of its own, and ends both whatever `body` does.
    func withTmux(_ body: (CommandLineHarness, Tmux) async throws -> Void) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.tmuxPath), "no tmux: run `make deps`")
        try await CommandLineHarness.with { harness in
            let tmux = try await Tmux(socket: harness.folder.appendingPathComponent("tmux.sock").path)
            do {
                try await body(harness, tmux)
            } catch {
                await tmux.kill()
                throw error
            }
            await tmux.kill()
        }
    }

    @Test func aliceTypesInTmuxAndBobsScreenShowsIt() async throws {
        try await withTmux(conversation)
    }

    /// The compose line writes into a secret chat as into any chat: markdown (sent as the secret layer's entities),
    /// a photo with a caption, and a reply — each sealed by the account's secret chats; Bob's stored copies carry
    /// them. Bob typing in his interactive client shows as "(typing…)" in Alice's title.
    @Test func aliceWritesInASecretChatFromTmux() async throws {
        try await withTmux(secretConversation)
    }

    func secretConversation(_ harness: CommandLineHarness, _ tmux: Tmux) async throws {
        for (name, phone, code, first) in [
            ("alice", "9996610051", "11111", "Alice"), ("bob", "9996620052", "22222", "Bob"),
        ] {
            let login = try await harness.tgJSON(
                LoginResult.self,
                [
                    "login", "--account", name, "--phone", phone, "--code", code, "--first-name", first, "--server",
                    harness.serverArgument, "--server-key", harness.keyFile,
                ])
            #expect(login.status == "signedIn")
        }
        _ = try await harness.tgJSON([String: String?].self, ["--account", "bob", "username", "bob_tmux_secret"])
        // Bob's watch accepts the chat Alice asks for; Bob says hello in it so both lists show it.
        let watch = try await harness.startWatch(account: "bob", seconds: 60)
        struct Started: Decodable { let chat: String }
        let chat = try await harness.tgJSON(
            Started.self, ["--account", "alice", "--timeout", "20", "secret", "@bob_tmux_secret"]
        ).chat
        watch.send(SIGINT)
        _ = await watch.waitOffPool(timeout: 30)
        let hello = try await harness.tgJSON(MessageSummary.self, ["--account", "bob", "send", chat, "psst, Alice"])

        // Alice's interactive client: the secret chat on top of her list, opened with Enter.
        let tg = CommandLineHarness.tg.path
        try await tmux.start("alice", [tg, "--root", harness.root, "--account", "alice"])
        try await tmux.waitFor("alice", "the secret chat in the list") {
            $0.contains("Chats — alice · online") && $0.contains("🔒 Bob") && $0.contains("psst, Alice")
        }
        try await tmux.keys("alice", "Enter")
        try await tmux.waitFor("alice", "the secret chat open") { $0.contains("│ psst, Alice") }
        // Bob opens it in his interactive client and starts typing: Alice's title says so (updateEncryptedChatTyping).
        try await tmux.start("bob", [tg, "--root", harness.root, "--account", "bob"])
        try await tmux.waitFor("bob", "Bob's list with the secret chat") { $0.contains("🔒 Alice") }
        try await tmux.keys("bob", "Enter")
        try await tmux.waitFor("bob", "Bob in the secret chat") { $0.contains("│ psst, Alice") }
        #expect(!(try await tmux.screen("alice")).contains("(typing…)"))
        try await tmux.keys("bob", literal: "hmm")
        try await tmux.waitFor("alice", "Bob typing in her title", timeout: 15) { $0.contains("🔒 Bob (typing…)") }
        try await tmux.keys("bob", "C-u")
        try await tmux.keys("bob", "C-c")
        try await tmux.keys("alice", literal: "**Sealed** hello")
        try await tmux.keys("alice", "Enter")
        try await tmux.waitFor("alice", "her secret message shown and the line cleared") {
            $0.contains("│ Sealed hello") && !$0.contains("> **Sealed**")
        }
        let png = harness.folder.appendingPathComponent("secret.png").path
        try Data(PNGCodec.encode(Photo.drawn(width: 96, height: 64))).write(to: URL(fileURLWithPath: png))
        try await tmux.keys("alice", literal: "/photo \(png) a __secret__ picture")
        try await tmux.keys("alice", "Enter")
        try await tmux.waitFor("alice", "the photo sent") { $0.contains("│ a secret picture") && $0.contains(" sent") }
        try await tmux.keys("alice", "End")
        try await tmux.keys("alice", literal: "/reply")
        try await tmux.keys("alice", "Enter")
        try await tmux.waitFor("alice", "the reply prompt") { $0.contains("reply ") && $0.contains("Esc cancels") }
        try await tmux.keys("alice", literal: "answering")
        try await tmux.keys("alice", "Enter")
        try await tmux.waitFor("alice", "her reply shown") { $0.contains("│ answering") }
        try await tmux.keys("alice", "C-c")
        try await tmux.waitFor("alice", "the shell after tg") { $0.contains("tty checked") }

        // Bob's side: the entities, the photo with its caption's entity, the reply naming his message.
        var bobs: [MessageSummary] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            bobs = try await harness.tgJSON([MessageSummary].self, ["--account", "bob", "history", chat])
            if bobs.contains(where: { $0.text == "answering" }) { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        let sealed = try #require(bobs.first { $0.text == "Sealed hello" }, "\(bobs.map(\.text))")
        #expect(!sealed.outgoing && sealed.markdown == "**Sealed** hello")
        let photo = try #require(bobs.first { $0.media?.kind == "photo" })
        #expect(photo.markdown == "a __secret__ picture" && photo.media?.width == 96)
        let answer = try #require(bobs.first { $0.text == "answering" })
        #expect(answer.replyTo == hello.id, "\(answer)")
    }

    func conversation(_ harness: CommandLineHarness, _ tmux: Tmux) async throws {
        for (name, phone, code, first) in [
            ("alice", "9996610001", "11111", "Alice"), ("bob", "9996620002", "22222", "Bob"),
            ("cat", "9996630003", "33333", "Cat"),
        ] {
            let login = try await harness.tgJSON(
                LoginResult.self,
                [
                    "login", "--account", name, "--phone", phone, "--code", code, "--first-name", first, "--server",
                    harness.serverArgument, "--server-key", harness.keyFile,
                ])
            #expect(login.status == "signedIn")
        }
        // Bob sends a GIF (a silent square clip), then his hello: Alice saves the GIF from her chat with him later.
        let media = harness.folder.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        let clip = media.appendingPathComponent("loop.mp4").path
        let made = try await ProcessRunner.runOffPool(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=96x96:rate=10", "-t", "1", "-c:v",
                "libx264", "-pix_fmt", "yuv420p", clip,
            ])
        try #require(made.status == 0, "ffmpeg: \(made.errorOutput)")
        let gif = try await harness.tg(["--account", "bob", "send", "+9996610001", "--video", clip, "--gif"])
        try #require(gif.status == 0, "bob's GIF: \(gif.errorOutput)")
        let hello = try await harness.tg(["--account", "bob", "send", "+9996610001", "hi Alice"])
        try #require(hello.status == 0, "bob's send: \(hello.errorOutput)")

        // `tg` alone on a terminal is the interactive client: the chat list, Bob unread, online in the title (Bob's
        // presence after his `tg send` is online or, once its connection went, "last seen just now").
        let tg = CommandLineHarness.tg.path
        try await tmux.start("alice", [tg, "--root", harness.root, "--account", "alice"])
        try await tmux.waitFor("alice", "the chat list with Bob unread, online") {
            $0.contains("Chats — alice · online") && $0.contains("Bob (2)") && $0.contains("hi Alice")
        }
        // Bob's interactive client: Alice's, open, has said she is online.
        try await tmux.start("bob", [tg, "--root", harness.root, "--account", "bob", "ui"])
        try await tmux.waitFor("bob", "Bob's chat list") {
            $0.contains("Chats — bob · online") && $0.contains("Alice · online  me: hi Alice")
        }

        // Alice opens the chat (Enter): Bob's client said he is online, so her title says so; she sees his message,
        // types markdown and sends it.
        try await tmux.keys("alice", "Enter")
        try await tmux.waitFor("alice", "Bob's chat, Bob online") {
            $0.contains("Bob · online — alice") && $0.contains("│ hi Alice")
        }
        try await tmux.keys("alice", literal: "**Hello** Bob, from tmux")
        try await tmux.waitFor("alice", "the typed line") { $0.contains("> **Hello** Bob, from tmux") }
        try await tmux.keys("alice", "Enter")
        let sent = try await tmux.waitFor("alice", "her message sent (✓) and the line cleared") { screen in
            screen.contains("│ Hello Bob, from tmux") && screen.contains("✓") && !screen.contains("> **Hello**")
        }
        #expect(!sent.contains("◷"), "\(sent)")

        // Bob's screen: the chat list moves Alice's chat up with her message, unread; he opens it and sees it.
        try await tmux.waitFor("bob", "Alice's message in his list") {
            $0.contains("Alice (1) · online  Hello Bob, from tmux")
        }
        try await tmux.keys("bob", "Enter")
        try await tmux.waitFor("bob", "Alice's message in the chat") {
            $0.contains("Alice · online — bob") && $0.contains("│ Hello Bob, from tmux")
        }
        // Bob answers with a reply to her message, and Alice's chat follows the bottom to show it.
        try await tmux.keys("bob", literal: "/reply")
        try await tmux.keys("bob", "Enter")
        try await tmux.waitFor("bob", "the reply prompt") { $0.contains("reply ") && $0.contains("Esc cancels") }
        try await tmux.keys("bob", literal: "__got it__")
        try await tmux.keys("bob", "Enter")
        try await tmux.waitFor("alice", "Bob's reply quoting her") {
            $0.contains("┃ You: Hello Bob, from tmux") && $0.contains("│ got it")
        }

        // Media from the compose line: a photo with a markdown caption, a file, a voice note and a sticker by index;
        // each shows in Alice's chat once the server has it, and the last reaches Bob's screen.
        let png = media.appendingPathComponent("picture.png").path
        try Data(PNGCodec.encode(Photo.drawn(width: 96, height: 64))).write(to: URL(fileURLWithPath: png))
        let notes = media.appendingPathComponent("notes.txt").path
        try Data("notes from tmux\n".utf8).write(to: URL(fileURLWithPath: notes))
        let wav = media.appendingPathComponent("voice.wav").path
        try CommandLineTests.sineWAV(seconds: 1).write(to: URL(fileURLWithPath: wav))
        for (line, shown) in [
            ("/photo \(png) a **tmux** picture", "│ a tmux picture"), ("/file \(notes)", "notes.txt"),
            ("/voice \(wav)", "🎤"), ("/sticker 1", "[sticker"),
        ] {
            try await tmux.keys("alice", literal: line)
            try await tmux.keys("alice", "Enter")
            try await tmux.waitFor("alice", "\(line) sent") { $0.contains(shown) && $0.contains(" sent") }
            try await tmux.keys("alice", "End")
        }
        try await tmux.waitFor("bob", "the sticker on Bob's screen") { $0.contains("[sticker") }

        // Bob's GIF saved from the chat (/savegif alone takes the newest GIF), then sent back from the saved list.
        try await tmux.keys("alice", literal: "/savegif")
        try await tmux.keys("alice", "Enter")
        try await tmux.waitFor("alice", "the GIF saved") { $0.contains("GIF saved") }
        try await tmux.keys("alice", literal: "/gif 1")
        try await tmux.keys("alice", "Enter")
        try await tmux.waitFor("bob", "the GIF back on Bob's screen") { $0.contains("[GIF 96×96]") }

        // Search: the results screen, Esc back; another account with /account, and back.
        try await tmux.keys("alice", "Escape")
        try await tmux.keys("alice", literal: "/search tmux")
        try await tmux.keys("alice", "Enter")
        try await tmux.waitFor("alice", "the search results") {
            $0.contains("Search “tmux” — alice") && $0.contains("Bob: Hello Bob, from tmux")
        }
        try await tmux.keys("alice", "Escape")
        try await tmux.keys("alice", literal: "/account cat")
        try await tmux.keys("alice", "Enter")
        try await tmux.waitFor("alice", "Cat's empty chat list") {
            $0.contains("Chats — cat · online") && $0.contains("switched to cat")
        }
        try await tmux.keys("alice", "Tab")
        try await tmux.waitFor("alice", "Alice's chat list again") {
            $0.contains("Chats — alice") && $0.contains("Bob")
        }

        // Leaving: Ctrl-C for Alice, SIGTERM for Bob; both restore the terminal and exit 0.
        try await tmux.keys("alice", "C-c")
        // The pane's shell prints the exit status, then the terminal's modes, then "tty checked": wait for all of it.
        let aliceAfter = try await tmux.waitFor("alice", "the shell after tg") { $0.contains("tty checked") }
        #expect(aliceAfter.contains("tg exited 0") && aliceAfter.contains("\necho") && aliceAfter.contains("icanon"))
        // Alice's client said offline as it left: Bob's title says when she was last seen.
        try await tmux.waitFor("bob", "Alice offline in Bob's title") { $0.contains("Alice · last seen") }
        let bobTG = try await tmux.childOfPane("bob")
        kill(bobTG, SIGTERM)
        let bobAfter = try await tmux.waitFor("bob", "the shell after tg") { $0.contains("tty checked") }
        #expect(bobAfter.contains("tg exited 0") && bobAfter.contains("\necho") && bobAfter.contains("icanon"))

        // Bob's stored copy: bold "Hello", and his reply stored on Alice's side with its italic entity.
        let bobHistory = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "bob", "history", "+9996610001"])
        let received = try #require(bobHistory.first { $0.text == "Hello Bob, from tmux" })
        #expect(bobHistory.suffix(5).map { $0.media?.kind } == ["photo", "file", "voice", "sticker", "gif"])
        #expect(bobHistory.suffix(5).first?.markdown == "a **tmux** picture")
        // The GIF Alice sent back is Bob's first message's document, by reference (the same file and size).
        #expect(bobHistory.first?.media?.kind == "gif" && bobHistory.last?.media?.size == bobHistory.first?.media?.size)
        #expect(!received.outgoing && received.markdown == "**Hello** Bob, from tmux")
        let aliceHistory = try await harness.tgJSON(
            [MessageSummary].self, ["--account", "alice", "history", "+9996620002"])
        let reply = try #require(aliceHistory.first { $0.text == "got it" })
        #expect(reply.markdown == "__got it__" && reply.replyTo == received.id)

        // Without a terminal, nothing changes: `tg` alone prints its help (with the keys), and with only global
        // options it is a usage error (2).
        let alone = try await ProcessRunner.runOffPool(CommandLineHarness.tg, [], timeout: 30)
        #expect(alone.status == 0 && alone.output.contains("OVERVIEW: The Telegraph client"))
        #expect(alone.output.contains("KEYS (interactive):"))
        let ui = try await harness.tg(["ui"])
        #expect(ui.status == 2 && ui.errorOutput.contains("needs a terminal"), "\(ui.errorOutput)")
        let globalsOnly = try await harness.tg([])
        #expect(globalsOnly.status == 2 && globalsOnly.errorOutput.contains("run 'tg --help'"))
    }
}
