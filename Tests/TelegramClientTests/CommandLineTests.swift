import Foundation
import ImageCore
import MediaTestSupport
import TelegramClient
import TestVectors
import Testing

/// A message as the Telethon peer reports it.
struct PeerMessage: Decodable {
    struct Entity: Decodable, Equatable {
        let type: String
        let offset: Int
        let length: Int
        let url: String?
    }

    struct Media: Decodable {
        let kind: String
        let file_name: String?
        let mime_type: String?
        let size: Int?
        let voice: Bool?
        let duration: Double?
        let emoji: String?
        let set_id: Int64?
        let w: Int?
    }

    let id: Int32
    let out: Bool
    let text: String
    let entities: [Entity]
    let reply_to: Int32?
    let grouped_id: Int64?
    let edited: Bool
    /// The forward header's first author (a user id) and a hidden author's name.
    let fwd_from: Int64?
    let fwd_name: String?
    let media: Media?
}

struct PeerMessages: Decodable { let messages: [PeerMessage] }
struct PeerSent: Decodable { let id: Int32 }
struct PeerReadMark: Decodable { let max_id: Int32 }
struct PeerGroup: Decodable { let chat_id: Int64 }

/// A line of `tg watch --json`.
struct WatchLine: Decodable {
    let event: String
    let chat: String
    let message: MessageSummary?
    let ids: [Int32]?
    let readUpTo: Int32?
    let readBy: String?
}

struct LoginResult: Decodable {
    let account: String
    let status: String
    let userId: Int64?
    let needs: String?
}

struct AccountRow: Decodable {
    let name: String
    let userId: Int64?
    let loggedIn: Bool
    let current: Bool
    let server: String
}

struct DownloadResult: Decodable {
    let path: String
    let size: Int64
}

/// The `tg` binary as people and scripts use it, against a real tg-server process with Telethon 1.45 as the other
/// person: sign-up (one account stopping at the code and resuming), accounts and switching, markdown that arrives as
/// entities, every kind of media, reply, edit, delete, read, local and server search, download, watch (to a count, and
/// to SIGINT), render, a two-step verification sign-in and log-out. Each step is a separate `tg` process over the same root, as a script would run it.
@Suite(.serialized) struct CommandLineTests {
    static let bob = "9996620002"

    @Test func aScriptedConversationWithTelethon() async throws {
        let harness = try await CommandLineHarness(peerPhone: Self.bob)
        do {
            try await conversation(harness)
        } catch {
            await harness.close()
            throw error
        }
        await harness.close()
    }

    func conversation(_ harness: CommandLineHarness) async throws {
        let media = harness.folder.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)

        // Ann signs up in one go (her DC 1 number makes the client follow PHONE_MIGRATE_1).
        let ann = try await harness.tgJSON(
            LoginResult.self,
            [
                "login", "--account", "ann", "--phone", "9996610001", "--code", "11111", "--first-name", "Ann",
                "--server", harness.serverArgument, "--server-key", harness.keyFile,
            ])
        #expect(ann.status == "signedIn" && ann.userId != nil)
        // Cat's script gets her code later: without a terminal, login stops at the code and resumes with --code.
        let waiting = try await harness.tgJSON(
            LoginResult.self,
            [
                "login", "--account", "cat", "--phone", "9996620003", "--server", harness.serverArgument,
                "--server-key", harness.keyFile,
            ])
        #expect(waiting.status == "waiting" && waiting.needs == "code")
        let wrong = try await harness.tg(["login", "--account", "cat", "--code", "99999"])
        #expect(wrong.status == 2 && wrong.errorOutput.contains("wrong code"), "\(wrong.errorOutput)")
        let cat = try await harness.tgJSON(
            LoginResult.self, ["login", "--account", "cat", "--code", "22222", "--first-name", "Cat"])
        #expect(cat.status == "signedIn")
        var accounts = try await harness.tgJSON([AccountRow].self, ["accounts"])
        #expect(accounts.map(\.name) == ["ann", "cat"] && accounts.map(\.current) == [false, true])
        #expect(accounts.allSatisfy { $0.loggedIn && $0.server == harness.serverArgument })
        _ = try await harness.tgJSON([String: String].self, ["switch", "ann"])
        accounts = try await harness.tgJSON([AccountRow].self, ["accounts"])
        #expect(accounts.map(\.current) == [true, false])

        // Bob writes with markdown; Ann's history (found by his username) shows the entities.
        let hello = try await harness.peer(
            PeerSent.self, ["op": "send", "to": "9996610001", "text": "**Hi** Ann", "markdown": true])
        let history = try await harness.tgJSON([MessageSummary].self, ["history", "@bob_cli"])
        let received = try #require(history.last)
        #expect(
            received.id == hello.id && received.text == "Hi Ann" && !received.outgoing && received.fromName == "Bob")
        #expect(received.entities.map(\.type) == ["bold"] && received.markdown == "**Hi** Ann")

        // Ann answers with markdown, as a reply: Telethon sees the entities and the reply.
        let sent = try await harness.tgJSON(
            MessageSummary.self,
            ["send", "@bob_cli", "**bold** __it__ [site](https://example.com/a)", "--reply", String(hello.id)])
        #expect(sent.text == "bold it site" && sent.replyTo == hello.id && !sent.unsent)
        var seen = try await harness.peer(PeerMessages.self, ["op": "messages", "to": "9996610001", "limit": 1])
            .messages
        #expect(seen.first?.id == sent.id && seen.first?.reply_to == hello.id)
        #expect(
            seen.first?.entities
                == [
                    .init(type: "MessageEntityBold", offset: 0, length: 4, url: nil),
                    .init(type: "MessageEntityItalic", offset: 5, length: 2, url: nil),
                    .init(type: "MessageEntityTextUrl", offset: 8, length: 4, url: "https://example.com/a"),
                ])

        // Media: a photo, a file, a voice note, a sticker and an album of two.
        let png = media.appendingPathComponent("picture.png").path
        try Data(PNGCodec.encode(Photo.drawn(width: 96, height: 64))).write(to: URL(fileURLWithPath: png))
        let text = media.appendingPathComponent("notes.txt").path
        try Data("tg sends files\n".utf8).write(to: URL(fileURLWithPath: text))
        let wav = media.appendingPathComponent("voice.wav").path
        try Self.sineWAV(seconds: 2).write(to: URL(fileURLWithPath: wav))
        let photo = try await harness.tgJSON(MessageSummary.self, ["send", "@bob_cli", "a picture", "--photo", png])
        #expect(photo.media?.kind == "photo" && photo.text == "a picture")
        let file = try await harness.tgJSON(MessageSummary.self, ["send", "@bob_cli", "--file", text])
        #expect(file.media?.kind == "file" && file.media?.fileName == "notes.txt")
        let voice = try await harness.tgJSON(MessageSummary.self, ["send", "@bob_cli", "--voice", wav])
        #expect(voice.media?.kind == "voice" && voice.media?.duration == 2)
        let sticker = try await harness.tgJSON(MessageSummary.self, ["send", "@bob_cli", "--sticker", "telegraph/1"])
        #expect(sticker.media?.kind == "sticker")
        let album = try await harness.tgJSON([MessageSummary].self, ["send", "@bob_cli", "two", "--album", png, text])
        #expect(album.count == 2 && album[0].album != nil && album[0].album == album[1].album)
        seen = try await harness.peer(PeerMessages.self, ["op": "messages", "to": "9996610001", "limit": 6]).messages
            .reversed()
        #expect(seen.map(\.id) == [photo.id, file.id, voice.id, sticker.id, album[0].id, album[1].id])
        #expect(seen.map { $0.media?.kind } == ["photo", "document", "voice", "sticker", "photo", "document"])
        #expect(seen[1].media?.file_name == "notes.txt" && seen[1].media?.size == 15)
        #expect(seen[2].media?.duration == 2 && seen[2].media?.mime_type == "audio/ogg")
        #expect(seen[3].media?.set_id != nil)
        #expect(seen[4].grouped_id != nil && seen[4].grouped_id == seen[5].grouped_id && seen[4].text == "two")
        // The set's video sticker (WebM): Telethon sees a sticker of type video/webm with its video attribute.
        let video = try await harness.tgJSON(MessageSummary.self, ["send", "@bob_cli", "--sticker", "telegraph/6"])
        #expect(video.media?.kind == "sticker" && video.media?.mimeType == "video/webm" && video.media?.emoji == "🟣")
        #expect(video.media?.width == 512 && video.media?.duration == 1)
        let seenVideo = try await harness.peer(PeerMessages.self, ["op": "messages", "to": "9996610001", "limit": 1])
            .messages.first
        #expect(seenVideo?.id == video.id && seenVideo?.media?.kind == "sticker")
        #expect(seenVideo?.media?.mime_type == "video/webm" && seenVideo?.media?.w == 512)

        // Edit and delete reach Telethon.
        let edited = try await harness.tgJSON(
            MessageSummary.self, ["edit", "@bob_cli", String(file.id), "now **edited**"])
        #expect(edited.edited && edited.text == "now edited")
        _ = try await harness.tgJSON([String: [Int32]].self, ["delete", "@bob_cli", String(sticker.id), "--revoke"])
        seen = try await harness.peer(PeerMessages.self, ["op": "messages", "to": "9996610001", "limit": 10]).messages
        #expect(seen.first { $0.id == file.id }.map { $0.edited && $0.text == "now edited" } == true)
        #expect(!seen.contains { $0.id == sticker.id })

        // Bob writes in Vietnamese and sends a file; Ann reads the chat, finds "pho" without diacritics, downloads.
        let pho = try await harness.peer(PeerSent.self, ["op": "send", "to": "9996610001", "text": "Ăn phở bò không?"])
        let document = media.appendingPathComponent("report.bin")
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        try bytes.write(to: document)
        let attachment = try await harness.peer(
            PeerSent.self, ["op": "send_file", "to": "9996610001", "path": document.path, "caption": "the report"])
        let read = try await harness.tgJSON(ReadMark.self, ["read", "@bob_cli"])
        #expect(read.readUpTo == attachment.id)
        #expect(
            try await harness.peer(PeerReadMark.self, ["op": "read_outbox", "to": "9996610001"]).max_id == attachment.id
        )
        let local = try await harness.tgJSON([MessageSummary].self, ["search", "pho"])
        #expect(local.map(\.id) == [pho.id] && local.first?.chatName == "Bob")
        let remote = try await harness.tgJSON([MessageSummary].self, ["search", "phở", "--server"])
        #expect(remote.map(\.id) == [pho.id])
        let downloads = media.appendingPathComponent("downloads").path + "/"
        let downloaded = try await harness.tgJSON(
            DownloadResult.self, ["download", "@bob_cli", String(attachment.id), "-o", downloads])
        #expect(downloaded.path.hasSuffix("/report.bin") && downloaded.size == Int64(bytes.count))
        #expect(try Data(contentsOf: URL(fileURLWithPath: downloaded.path)) == bytes)

        // On a terminal (util-linux `script` gives tg a pty) uploads and downloads draw a progress bar on standard
        // error; without one (every run above) nothing but the result is printed.
        #expect(file.media != nil)
        let big = media.appendingPathComponent("big.bin").path
        try Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }).write(to: URL(fileURLWithPath: big))
        let upload = try await harness.inTerminal(["send", "@bob_cli", "--file", big])
        #expect(
            upload.status == 0 && upload.output.contains("\r[###") && upload.output.contains("100/100 upload big.bin"),
            "\(upload.output)")
        let download = try await harness.inTerminal([
            "download", "@bob_cli", String(attachment.id), "-o", media.appendingPathComponent("again.bin").path,
        ])
        #expect(download.status == 0 && download.output.contains("100/100 download"), "\(download.output)")
        let quiet = try await harness.tg(["send", "@bob_cli", "quiet", "--file", text, "--json"])
        #expect(quiet.status == 0 && quiet.errorOutput.isEmpty)
        let quietMessage = try JSONDecoder().decode(MessageSummary.self, from: quiet.stdout)
        // Bob has not read it yet: `history --json` says so, and `render` draws one check.
        let unreadYet = try await harness.tgJSON([MessageSummary].self, ["history", "@bob_cli", "--limit", "3"])
        #expect(unreadYet.last?.id == quietMessage.id && unreadYet.last?.read == false, "\(unreadYet.map(\.read))")
        #expect(unreadYet.allSatisfy { $0.outgoing || $0.read == nil }, "incoming messages have no read state")

        // watch prints what happens while it runs — Bob's new message, his edit, his read mark on ours, his delete —
        // and stops at --count.
        let watch = try harness.startTG(["watch", "--json", "--count", "4", "--for", "40"])
        let listening = await watch.waitForOutputOffPool(timeout: 30) {
            String(decoding: $0, as: UTF8.self).contains("watching")
        }
        try #require(listening, "watch did not start")
        let live = try await harness.peer(
            PeerSent.self, ["op": "send", "to": "9996610001", "text": "live from Telethon"])
        _ = try await harness.peer(
            Empty.self, ["op": "edit", "to": "9996610001", "id": live.id, "text": "live, edited"])
        _ = try await harness.peer(Empty.self, ["op": "read", "to": "9996610001"])
        _ = try await harness.peer(Empty.self, ["op": "delete", "to": "9996610001", "ids": [live.id]])
        let watched = await watch.waitOffPool(timeout: 45)
        #expect(watched.status == 0, "\(watched.errorOutput)")
        let lines = watched.output.split(separator: "\n").dropFirst()
        let events = try lines.map { try JSONDecoder().decode(WatchLine.self, from: Data($0.utf8)) }
        #expect(events.map(\.event) == ["new", "edited", "read", "deleted"], "\(watched.output)")
        if events.count == 4 {
            #expect(
                events[0].message?.id == live.id && events[0].message?.text == "live from Telethon"
                    && events[0].message?.outgoing == false)
            #expect(
                events[1].message?.id == live.id && events[1].message?.text == "live, edited"
                    && events[1].message?.edited == true)
            #expect(events[2].readBy == "them" && events[2].readUpTo == quietMessage.id)
            #expect(events[3].ids == [live.id] && events.allSatisfy { $0.chat == received.chat })
        }

        // Bob read it (Telethon's send_read_acknowledge, updateReadHistoryOutbox here): `history --json` says so.
        let readNow = try await harness.tgJSON([MessageSummary].self, ["history", "@bob_cli", "--limit", "3"])
        #expect(readNow.first { $0.id == quietMessage.id }?.read == true, "\(readNow.map(\.read))")

        // render --ansi draws the chat, our messages read by Bob with ✓✓; --png draws it as a phone screen with its
        // pictures, --fit as tall as it needs.
        let rendered = try await harness.tg(["render", "@bob_cli", "--ansi", "--plain", "--width", "60"])
        #expect(rendered.status == 0 && rendered.output.contains("now edited") && rendered.output.contains("notes.txt"))
        let footers = rendered.output.split(separator: "\n").filter { $0.contains("✓") }
        #expect(!footers.isEmpty && footers.allSatisfy { $0.contains("✓✓") }, "Bob read all of ours: \(footers)")
        #expect(rendered.output.contains("╭") && !rendered.output.contains("\u{1B}["))
        // The header names Bob with his presence (his sends kept him online, or he was since).
        let header = rendered.output.split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.hasPrefix("Bob · ") && (header.hasSuffix("online") || header.contains("last seen")), "\(header)")
        try await checkPNG(harness, media)

        // A basic group Bob makes: listed by `chats`, written to by its name, read back by its handle.
        let group = try await harness.peer(
            PeerGroup.self, ["op": "create_group", "with": "9996610001", "title": "Soup club"])
        let chats = try await harness.tgJSON([ChatSummary].self, ["chats"])
        #expect(
            chats.first?.chat == "chat:\(group.chat_id)" && chats.first?.name == "Soup club", "\(chats.map(\.name))")
        let toGroup = try await harness.tgJSON(MessageSummary.self, ["send", "Soup club", "hello __club__"])
        #expect(toGroup.chat == "chat:\(group.chat_id)")
        let groupSeen = try await harness.peer(
            PeerMessages.self, ["op": "group_messages", "chat_id": group.chat_id, "limit": 1]
        ).messages
        #expect(
            groupSeen.first?.text == "hello club" && groupSeen.first?.entities.map(\.type) == ["MessageEntityItalic"])
        let groupHistory = try await harness.tgJSON([MessageSummary].self, ["history", "chat:\(group.chat_id)"])
        #expect(groupHistory.last?.id == toGroup.id)

        // SIGINT ends watch cleanly.
        let interrupted = try harness.startTG(["watch"])
        let started = await interrupted.waitForOutputOffPool(timeout: 30) {
            String(decoding: $0, as: UTF8.self).contains("watching")
        }
        try #require(started, "watch did not start")
        interrupted.send(SIGINT)
        let stopped = await interrupted.waitOffPool(timeout: 30)
        #expect(stopped.status == 0 && !stopped.timedOut, "\(stopped.errorOutput)")

        // Bob turns two-step verification on; his number signs in here too, stopping at the password, then with it.
        _ = try await harness.peer(Empty.self, ["op": "set_password", "password": "correct horse", "hint": "horse"])
        let needsPassword = try await harness.tgJSON(
            LoginResult.self,
            [
                "login", "--account", "bob", "--phone", Self.bob, "--code", "22222", "--server", harness.serverArgument,
                "--server-key", harness.keyFile,
            ])
        #expect(needsPassword.status == "waiting" && needsPassword.needs == "password")
        let wrongPassword = try await harness.tg(["login", "--account", "bob", "--password", "wrong"])
        #expect(
            wrongPassword.status == 2 && wrongPassword.errorOutput.contains("wrong password"),
            "\(wrongPassword.errorOutput)")
        let bob = try await harness.tgJSON(
            LoginResult.self, ["login", "--account", "bob", "--password", "correct horse"])
        #expect(bob.status == "signedIn")
        let bobsHistory = try await harness.tgJSON(
            [MessageSummary].self, ["history", "+9996610001", "--account", "bob", "--limit", "3"])
        #expect(bobsHistory.last?.text == "quiet" && bobsHistory.last?.outgoing == false)
        _ = try await harness.tgJSON([String: String].self, ["switch", "ann"])

        // Saved Messages: the chat with oneself.
        let note = try await harness.tgJSON(MessageSummary.self, ["send", "me", "a note"])
        #expect(note.chatName == "Saved Messages" && note.chat == "user:\(ann.userId ?? 0)")
        #expect(try await harness.tgJSON([MessageSummary].self, ["history", "me"]).map(\.text) == ["a note"])

        // Ann takes a username: Telethon (Bob) finds her by it and writes, and so does Bob's account here, from the
        // server; a malformed name is bad input, a taken one refused.
        let taken = try await harness.tgJSON([String: String?].self, ["username", "@ann_cli"])
        #expect(taken["username"] == "ann_cli")
        _ = try await harness.peer(PeerSent.self, ["op": "send", "to": "@ann_cli", "text": "found you"])
        let toAnn = try await harness.tgJSON([MessageSummary].self, ["history", "@bob_cli", "--limit", "1"])
        #expect(toAnn.last?.text == "found you" && toAnn.last?.outgoing == false)
        let fromBob = try await harness.tgJSON(
            [MessageSummary].self, ["history", "@ann_cli", "--account", "bob", "--limit", "1"])
        #expect(fromBob.last?.text == "found you" && fromBob.last?.outgoing == true)
        let malformed = try await harness.tg(["username", "1ann"])
        #expect(
            malformed.status == 2 && malformed.errorOutput.contains("starts with a digit"), "\(malformed.errorOutput)")
        let occupied = try await harness.tg(["username", "bob_cli"])
        #expect(occupied.status == 6 && occupied.errorOutput.contains("taken"), "\(occupied.errorOutput)")
        #expect(try await harness.tg(["username", "ann_cli"]).output == "@ann_cli\n")

        // Who sees Ann's last seen time: everybody until she says contacts; the server keeps it.
        #expect(try await harness.tg(["privacy", "last-seen"]).output == "last seen: everybody\n")
        let contactsOnly = try await harness.tgJSON([String: String].self, ["privacy", "last-seen", "contacts"])
        #expect(contactsOnly["lastSeen"] == "contacts")
        #expect(try await harness.tgJSON([String: String].self, ["privacy", "last-seen"])["lastSeen"] == "contacts")
        let badPrivacy = try await harness.tg(["privacy", "last-seen", "friends"])
        #expect(badPrivacy.status == 2 && badPrivacy.errorOutput.contains("everybody, contacts or nobody"))
        _ = try await harness.tg(["privacy", "last-seen", "everybody"])

        // Ann blocks Bob: her block list names him (contacts.getBlocked); unblocking empties it.
        struct Toggled: Decodable {
            let user: String
            let blocked: Bool
        }
        struct BlockedRow: Decodable {
            let user: String
            let name: String
            let date: Int32
        }
        let blocking = try await harness.tgJSON(Toggled.self, ["block", "@bob_cli"])
        #expect(blocking.blocked && blocking.user.hasPrefix("user:"))
        let blockList = try await harness.tgJSON([BlockedRow].self, ["blocked"])
        #expect(blockList.map(\.user) == [blocking.user] && blockList.first?.name == "Bob", "\(blockList)")
        #expect(try await harness.tg(["unblock", "@bob_cli"]).output == "unblocked Bob\n")
        #expect(try await harness.tg(["blocked"]).output == "nobody blocked\n")
        let notUser = try await harness.tg(["block", "me"])
        #expect(notUser.status == 2, "\(notUser.errorOutput)")

        // Cat logs out: her folder goes, Ann stays.
        _ = try await harness.tgJSON([String: String].self, ["logout", "--account", "cat"])
        accounts = try await harness.tgJSON([AccountRow].self, ["accounts"])
        #expect(accounts.map(\.name) == ["ann", "bob"] && accounts.map(\.current) == [true, false])
        let gone = try await harness.tg(["history", "me", "--account", "cat"])
        #expect(gone.status == 3 && gone.errorOutput.contains("no account named 'cat'"), "\(gone.errorOutput)")
        #expect(try await harness.tg(["chats"]).output.contains("Bob"))
    }

    @Test func helpListsEveryCommandAndTheExitCodes() async throws {
        try await CommandLineHarness.with(helpAndErrors)
    }

    func helpAndErrors(_ harness: CommandLineHarness) async throws {
        let help = try await harness.tg(["--help"])
        #expect(help.status == 0)
        for line in [
            "  3  not logged in", "  4  the server could not be reached", "  5  not found", "  6  the server refused",
        ] {
            #expect(help.output.contains(line), "\(line)")
        }
        #expect(help.output.contains("~/.local/share/telegraph"))
        let commands = [
            "login", "accounts", "switch", "logout", "chats", "history", "send", "edit", "delete", "read", "search",
            "download",
            "render", "watch", "username", "create-channel", "create-group", "join", "leave", "invite", "members",
            "admin", "ban", "rename", "chat-photo", "profile-photo", "block", "unblock", "blocked",
        ]
        for command in commands {
            #expect(help.output.contains("  \(command) "), "tg --help lacks \(command)")
            let own = try await harness.tg([command, "--help"])
            #expect(
                own.status == 0 && own.output.contains("USAGE: tg \(command)") && own.output.contains("--root"),
                "\(command)")
        }
        // A group of subcommands: listed, and its subcommand takes the global options.
        #expect(help.output.contains("  privacy "), "tg --help lacks privacy")
        let lastSeen = try await harness.tg(["privacy", "last-seen", "--help"])
        #expect(
            lastSeen.status == 0 && lastSeen.output.contains("USAGE: tg privacy last-seen")
                && lastSeen.output.contains("--root") && lastSeen.output.contains("everybody"), "\(lastSeen.output)")
        let admin = try await harness.tg(["admin", "--help"])
        for option in ["--rights", "--rank", "--remove", "add-admins", "RIGHT_FORBIDDEN"] {
            #expect(admin.output.contains(option), "admin --help lacks \(option)")
        }
        let ban = try await harness.tg(["ban", "--help"])
        for option in ["--until", "--kick", "CHAT_ADMIN_REQUIRED"] {
            #expect(ban.output.contains(option), "ban --help lacks \(option)")
        }
        let send = try await harness.tg(["send", "--help"])
        for option in ["--reply", "--photo", "--album", "--file", "--voice", "--sticker", "--json"] {
            #expect(send.output.contains(option), "send --help lacks \(option)")
        }
        // Global options go before or after the command.
        let before = try await harness.tg(["--account", "nobody", "history", "me"])
        #expect(before.status == 3 && before.errorOutput.contains("no account named 'nobody'"), "\(before.errorOutput)")
        let noAccount = try await harness.tg(["chats"])
        #expect(noAccount.status == 3 && noAccount.errorOutput.hasPrefix("tg: error: no account is logged in"))
        let usage = try await harness.tg(["send", "me"])
        #expect(usage.status == 2 && usage.errorOutput.contains("nothing to send"))
        let badServer = try await harness.tg([
            "login", "--phone", "9996620009", "--server", "nowhere", "--server-key", harness.keyFile,
        ])
        #expect(badServer.status == 2 && badServer.errorOutput.contains("not a server address"))
        // On a terminal, login asks for the phone, the code and the name.
        let asked = try await harness.inTerminal(
            ["login", "--account", "dee", "--server", harness.serverArgument, "--server-key", harness.keyFile],
            input: "9996620005\n22222\nDee\n\n")
        #expect(asked.status == 0, "\(asked.output)")
        for prompt in [
            "Phone number: ", "Code sent to +9996620005: ", "New account — first name: ", "Signed in as user:",
        ] {
            #expect(asked.output.contains(prompt), "\(asked.output)")
        }
        #expect(try await harness.tgJSON([AccountRow].self, ["accounts"]).map(\.name) == ["dee"])
        _ = try await harness.tgJSON([String: String].self, ["logout"])
        // Without a terminal and without --phone, login stops before the phone and goes on when it is given.
        let noPhone = try await harness.tgJSON(
            LoginResult.self,
            ["login", "--account", "eve", "--server", harness.serverArgument, "--server-key", harness.keyFile])
        #expect(noPhone.status == "waiting" && noPhone.needs == "phone")
        let eve = try await harness.tgJSON(
            LoginResult.self,
            ["login", "--account", "eve", "--phone", "9996620006", "--code", "22222", "--first-name", "Eve"])
        #expect(eve.status == "signedIn")
        _ = try await harness.tgJSON([String: String].self, ["logout"])

        // A server that is not there: the login cannot send the code, and a later command gives up after --timeout.
        let closed = "127.0.0.1:1=1,2=1,3=1"
        let unreachable = try await harness.tg(
            ["login", "--phone", "9996620009", "--server", closed, "--server-key", harness.keyFile, "--timeout", "3"],
            timeout: 60)
        #expect(unreachable.status == 4, "\(unreachable.status): \(unreachable.errorOutput)")
        #expect(unreachable.errorOutput.contains("check that the server is running"))
        let pending = try await harness.tg(["chats", "--timeout", "2"])
        #expect(
            pending.status == 3 && pending.errorOutput.contains("has not finished signing in"), "\(pending.errorOutput)"
        )
    }

    /// `render --png`: a 1080×2400 screen with Ann's green bubbles on the right and Bob's white ones on the left under
    /// the light grey navigation bar, every picture fetched; `--fit` no shorter, with at least as many bubbles.
    func checkPNG(_ harness: CommandLineHarness, _ media: URL) async throws {
        let path = media.appendingPathComponent("chat.png").path
        let result = try await harness.tgJSON(RenderedPNG.self, ["render", "@bob_cli", "--png", path])
        #expect(result.path == path && result.width == 1080 && result.height == 2400 && result.missingPictures == 0)
        let screen = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(screen.width == 1080 && screen.height == 2400)
        #expect(screen[20, 20] == RGBA(r: 0xF7, g: 0xF7, b: 0xF7, a: 255), "the navigation bar")
        // Bubbles are at most 80 % of the width: ours never reach the left tenth (their margin and tail), theirs start there.
        let ours = Self.count(screen, RGBA(r: 0xE1, g: 0xFF, b: 0xC7, a: 255))
        #expect(ours.right > 20_000 && ours.leftTenth == 0, "green bubbles on the right: \(ours)")
        let theirs = Self.count(screen, RGBA(r: 0xFF, g: 0xFF, b: 0xFF, a: 255))
        #expect(theirs.leftTenth > 2_000, "white bubbles on the left: \(theirs)")
        let tall = media.appendingPathComponent("chat-all.png").path
        let fitted = try await harness.tgJSON(RenderedPNG.self, ["render", "@bob_cli", "--png", tall, "--fit"])
        let whole = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: tall))))
        #expect(fitted.height >= 2400 && whole.height == fitted.height && whole.width == 1080)
        #expect(Self.count(whole, RGBA(r: 0xE1, g: 0xFF, b: 0xC7, a: 255)).right >= ours.right)
        let both = try await harness.tg(["render", "@bob_cli", "--png", tall, "--ansi"])
        #expect(both.status == 2 && both.errorOutput.contains("alternatives"))
    }

    /// How many pixels of `color` (every other row and column) the history area of a 3× screen holds — between the
    /// 56-point navigation bar and the 50-point input panel — in its right half and in its left tenth.
    static func count(_ bitmap: Bitmap, _ color: RGBA) -> (right: Int, leftTenth: Int) {
        var right = 0, leftTenth = 0
        for y in stride(from: 168, to: bitmap.height - 150, by: 2) {
            for x in stride(from: 0, to: bitmap.width, by: 2) where bitmap[x, y] == color {
                if x >= bitmap.width / 2 { right += 1 }
                if x < bitmap.width / 10 { leftTenth += 1 }
            }
        }
        return (right, leftTenth)
    }

    /// Mono 16-bit PCM at 48 kHz: a 440 Hz tone.
    static func sineWAV(seconds: Int) -> Data {
        let rate = 48_000
        let samples = (0..<(rate * seconds)).map { Int16(8000 * sin(Double($0) * 2 * .pi * 440 / Double(rate))) }
        var data = Data("RIFF".utf8)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        append(UInt32(36 + samples.count * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16)); append(UInt16(1)); append(UInt16(1)); append(UInt32(rate)); append(UInt32(rate * 2))
        append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        append(UInt32(samples.count * 2))
        for sample in samples { append(sample) }
        return data
    }
}

struct RenderedPNG: Decodable {
    let path: String
    let width: Int
    let height: Int
    let missingPictures: Int
}

struct ReadMark: Decodable {
    let chat: String
    let readUpTo: Int32
}
