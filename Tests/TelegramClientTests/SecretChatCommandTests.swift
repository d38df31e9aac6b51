import Foundation
import ImageCore
import MediaTestSupport
import TelegramClient
import TestVectors
import Testing

/// `tg secret`, `tg secret-key` and secret chats in `send` and `history`, as real `tg` processes of two of our
/// accounts against a `tg-server` process (Telethon speaks no secret chats without a plugin): Ann asks Ben while
/// Ben's `watch` runs, accepts and prints her message; text and a file go both ways; both sides print the same key
/// visualization; styles, a reply, a photo, a voice note and a sticker arrive as in any chat and the photo downloads
/// decrypted; a request nobody answers times out (exit 4) and `secret --accept` takes it later.
@Suite(.serialized) struct SecretChatCommandTests {
    struct Started: Decodable {
        let chat: String
        let with: String
        let withName: String
    }

    @Test func twoAccountsHoldASecretChatThroughTg() async throws {
        try await CommandLineHarness.with(secretChat)
    }

    func secretChat(_ harness: CommandLineHarness) async throws {
        for (account, phone, name) in [("ben", "9996620042", "Ben"), ("ann", "9996610041", "Ann")] {
            let login = try await harness.tgJSON(
                LoginResult.self,
                [
                    "login", "--account", account, "--phone", phone, "--code",
                    String(repeating: String(phone.dropFirst(5).prefix(1)), count: 5),
                    "--first-name", name, "--server", harness.serverArgument, "--server-key", harness.keyFile,
                ])
            #expect(login.status == "signedIn", "\(account): \(login)")
        }
        _ = try await harness.tgJSON([String: String?].self, ["--account", "ben", "username", "ben_secret"])

        // Ben's client runs (watch accepts secret chats); Ann asks and waits for the key.
        let watch = try await harness.startWatch(account: "ben", seconds: 60)
        let started = try await harness.tgJSON(
            Started.self, ["--account", "ann", "--timeout", "20", "secret", "@ben_secret"])
        #expect(started.chat.hasPrefix("secret:") && started.withName == "Ben", "\(started)")
        let accepted = await watch.waitForOutputOffPool(timeout: 10) {
            String(decoding: $0, as: UTF8.self).contains("accepted secret chat \(started.chat)")
        }
        #expect(accepted, "Ben's watch did not say it accepted \(started.chat)")

        // Text and a file each way, as in any chat; Ben's watch prints what arrives.
        let sent = try await harness.tgJSON(
            MessageSummary.self, ["--account", "ann", "send", started.chat, "**Hello** Ben, just us"])
        let printed = await watch.waitForOutputOffPool(timeout: 15) {
            String(decoding: $0, as: UTF8.self).contains("new [1] ")
                && String(decoding: $0, as: UTF8.self).contains("**Hello** Ben, just us")
        }
        #expect(
            printed, "Ben's watch did not print the secret message: \(String(decoding: watch.output, as: UTF8.self))")
        watch.send(SIGINT)
        let watched = await watch.waitOffPool(timeout: 30)
        #expect(watched.status == 0, "\(watched.errorOutput)")
        #expect(watched.output.contains("🔒 Ann"), "\(watched.output)")
        #expect(sent.chat == started.chat && sent.outgoing && sent.text == "Hello Ben, just us")
        #expect(sent.chatName == "🔒 Ben", "\(sent.chatName)")
        let file = harness.folder.appendingPathComponent("plan.txt")
        try Data("meet at the lake at 8\n".utf8).write(to: file)
        let sentFile = try await harness.tgJSON(
            MessageSummary.self, ["--account", "ann", "send", started.chat, "--file", file.path])
        #expect(sentFile.text == "plan.txt", "\(sentFile)")
        let reply = try await harness.tgJSON(
            MessageSummary.self, ["--account", "ben", "send", started.chat, "Hello Ann"])
        #expect(reply.chat == started.chat && reply.chatName == "🔒 Ann")
        let bens = try await harness.tgJSON([MessageSummary].self, ["--account", "ben", "history", started.chat])
        // Within one second Postbox orders by namespace (received, sent): compare each side's messages in order.
        #expect(bens.filter { !$0.outgoing }.map(\.text) == ["Hello Ben, just us", "plan.txt"], "\(bens.map(\.text))")
        #expect(bens.filter(\.outgoing).map(\.text) == ["Hello Ann"] && bens.count == 3)
        #expect(bens.filter { !$0.outgoing }.allSatisfy { $0.fromName == "Ann" && $0.chatName == "🔒 Ann" })
        let anns = try await harness.tgJSON([MessageSummary].self, ["--account", "ann", "history", started.chat])
        #expect(anns.filter(\.outgoing).map(\.text) == ["Hello Ben, just us", "plan.txt"], "\(anns.map(\.text))")
        #expect(anns.filter { !$0.outgoing }.map(\.text) == ["Hello Ann"] && anns.count == 3)
        // As in any chat: markdown's styles and a reply, a photo (its thumbnail inside the encrypted message), a voice
        // note and a sticker; Ben's history shows them and `download` decrypts the photo.
        let hello = try #require(anns.first { !$0.outgoing })
        let styled = try await harness.tgJSON(
            MessageSummary.self,
            ["--account", "ann", "send", started.chat, "**bold** __it__", "--reply", "\(hello.id)"])
        #expect(styled.text == "bold it" && styled.replyTo == hello.id, "\(styled)")
        let png = harness.folder.appendingPathComponent("lake.png").path
        try Data(PNGCodec.encode(Photo.drawn(width: 96, height: 64))).write(to: URL(fileURLWithPath: png))
        let wav = harness.folder.appendingPathComponent("voice.wav").path
        try CommandLineTests.sineWAV(seconds: 2).write(to: URL(fileURLWithPath: wav))
        let photo = try await harness.tgJSON(
            MessageSummary.self, ["--account", "ann", "send", started.chat, "the lake", "--photo", png])
        #expect(photo.media?.kind == "photo" && photo.media?.width == 96 && photo.text == "the lake", "\(photo)")
        let voice = try await harness.tgJSON(
            MessageSummary.self, ["--account", "ann", "send", started.chat, "--voice", wav])
        #expect(voice.media?.kind == "voice" && voice.media?.duration == 2, "\(voice)")
        let sticker = try await harness.tgJSON(
            MessageSummary.self, ["--account", "ann", "send", started.chat, "--sticker", "telegraph/1"])
        #expect(sticker.media?.kind == "sticker", "\(sticker)")
        var received: [MessageSummary] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            received = try await harness.tgJSON([MessageSummary].self, ["--account", "ben", "history", started.chat])
                .filter { !$0.outgoing }
            if received.count == 6 { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        let styledAtBen = try #require(received.first { $0.text == "bold it" }, "\(received.map(\.text))")
        #expect(
            styledAtBen.entities.map(\.type) == ["bold", "italic"] && styledAtBen.replyTo == reply.id, "\(styledAtBen)")
        let photoAtBen = try #require(received.first { $0.media?.kind == "photo" })
        #expect(photoAtBen.text == "the lake" && photoAtBen.media?.width == 96 && photoAtBen.media?.height == 64)
        #expect(received.contains { $0.media?.kind == "voice" && $0.media?.duration == 2 })
        #expect(received.contains { $0.media?.kind == "sticker" })
        let target = harness.folder.appendingPathComponent("received.jpg").path
        let download = try await harness.tg(
            ["--account", "ben", "download", started.chat, "\(photoAtBen.id)", "--out", target])
        #expect(download.status == 0, "\(download.errorOutput)")
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: target))
        #expect(Int64(jpeg.count) == photo.media?.size && jpeg.prefix(2) == Data([0xff, 0xd8]))
        // Ann deletes her photo: gone on both sides.
        let deleted = try await harness.tg(["--account", "ann", "delete", started.chat, "\(photo.id)"])
        #expect(deleted.status == 0, "\(deleted.errorOutput)")
        var photoGone = false
        let goneBy = Date().addingTimeInterval(20)
        while Date() < goneBy && !photoGone {
            let bensNow = try await harness.tgJSON(
                [MessageSummary].self, ["--account", "ben", "history", started.chat])
            photoGone = !bensNow.contains { $0.media?.kind == "photo" }
            if !photoGone { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(photoGone, "the deleted photo is still at Ben's")
        // Albums are not sent in secret chats: a usage error, nothing sent.
        let album = try await harness.tg(["--account", "ann", "send", started.chat, "x", "--album", png, png])
        #expect(album.status == 2, "\(album.errorOutput)")

        // The key visualization: the same on both sides, 12 identicon rows, four emoji, 36 bytes of hex.
        let annKey = try await harness.tgJSON(
            SecretChatKeySummary.self, ["--account", "ann", "secret-key", started.chat])
        let benKey = try await harness.tgJSON(
            SecretChatKeySummary.self, ["--account", "ben", "secret-key", started.chat])
        #expect(annKey == benKey)
        #expect(annKey.identicon.count == 12 && annKey.identicon.allSatisfy { $0.count == 24 })
        #expect(annKey.emoji.count == 4 && annKey.fingerprint.count == 72 && annKey.hex.count == 4)
        let text = try await harness.tg(["--account", "ben", "secret-key", started.chat])
        #expect(text.status == 0 && text.output.contains(annKey.emoji.joined(separator: " ")))
        #expect(text.output.contains(annKey.identicon[0]) && text.output.contains(annKey.hex[0]))
        let notSecret = try await harness.tg(["--account", "ann", "secret-key", "@ben_secret"])
        #expect(notSecret.status == 2, "\(notSecret.errorOutput)")
        let unknown = try await harness.tg(["--account", "ann", "secret-key", "secret:999999"])
        #expect(unknown.status == 5, "\(unknown.errorOutput)")

        // Nobody answers: Ann gives up after --timeout (exit 4); Ben's `secret --accept` takes it later.
        let unanswered = try await harness.tg(["--account", "ann", "--timeout", "2", "secret", "@ben_secret"])
        #expect(unanswered.status == 4, "\(unanswered.errorOutput)")
        struct Accepted: Decodable { let accepted: [String] }
        let late = try await harness.tgJSON(Accepted.self, ["--account", "ben", "secret", "--accept"])
        #expect(late.accepted.count == 1 && late.accepted.first != started.chat, "\(late.accepted)")
        let none = try await harness.tg(["--account", "ben", "secret", "--accept"])
        #expect(none.status == 0 && none.output.contains("no secret chat to accept"))
        if let second = late.accepted.first {
            // Ann's side completes the exchange once it hears of the acceptance.
            let sentLate = try await harness.tg(["--account", "ann", "send", second, "late but here"])
            #expect(sentLate.status == 0, "\(sentLate.errorOutput)")
        }
    }
}
