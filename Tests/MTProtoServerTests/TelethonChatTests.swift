import CryptoUtils
import Foundation
import ServerAPI
import TestVectors
import Testing

/// Telethon 1.45.0 as two people using tg-server as Telegram (Tests/Fixtures/telethon/server_chat.py): sign-up with
/// PHONE_MIGRATE followed, a username found, messages with markdown entities, a reply, an edit, a delete with
/// revoke and a read receipt, each seen live by the other side; then the server is killed with SIGKILL and
/// restarted, Alice sends 3,000 messages while Bob is offline, and Bob catches up through updates.getDifference's
/// slices, seeing every message once and in order, with the first conversation still there. A basic group of three
/// (created by Bob with Alice and Carol) carries a message from each to the two others. A 12 MB document goes up in
/// big-file parts and comes down byte-identical on the uploader's DC; a voice note keeps its waveform; a sticker of the
/// server's set; a photo gets Telegram's sizes and an album of three arrives grouped; a user with two-step
/// verification signs in with the password.
@Suite(.serialized) struct TelethonChatTests {
    struct Chat: Decodable {
        struct Received: Decodable {
            let text: String
            let entities: [[JSONScalar]]
            let sender: Int64
        }
        struct Reply: Decodable { let text: String; let reply_to: Int?; let sent_id: Int }
        struct Edit: Decodable { let id: Int; let text: String; let was_id: Int }
        struct Delete: Decodable { let ids: [Int]; let his_copy: Int }
        struct Read: Decodable { let max_id: Int; let his_message: Int }

        let alice_dc: Int
        let bob_dc: Int
        let alice_id: Int64
        let bob_id: Int64
        let resolved_id: Int64
        let alice_got: Received
        let bob_sent_entities: [[JSONScalar]]
        let bob_got_reply: Reply
        let alice_saw_edit: Edit
        let bob_saw_delete: Delete
        let bob_saw_read: Read
        let bob_dialogs: [[Int64]]
        let group: Group
        let files: Files
        let photos: Photos
        let password: Password
    }

    struct Photos: Decodable {
        /// `[type of User.photo, [width, height] of the downloaded profile photo]`.
        let profile_photo: [JSONScalarOrList]
        /// `[type, w, h]`, w and h null for the stripped size.
        let sizes: [[JSONScalar?]]
        let largest: [Int]
        let stripped: Bool
        let album_grouped: Bool
        let album_photos: [Bool]
    }

    struct Password: Decodable {
        let steps: [String]
        let hint: String?
        let has_password: Bool
    }

    struct Files: Decodable {
        let video_sticker: VideoSticker
        let sticker_set: StickerSetSummary
        let installed_sets: [String]
        let sticker: [JSONScalar]
        let sent_sha256: String
        let received_sha256: String
        let document_dc: Int
        let file_name: String
        let size: Int
        let voice: Bool
        let voice_duration: Int
        let waveform_matches: Bool
        let voice_bytes: Int
    }

    /// The set's video sticker as Telethon downloaded it.
    struct VideoSticker: Decodable {
        let sha256: String
        let size_matches: Bool
        let video: [Double]
        let alt: String
        let set_id: Int64
        let thumbs: [String]
        let thumb_jpeg: String
    }

    /// `[short name, count, [mime types]]`.
    struct StickerSetSummary: Decodable {
        let shortName: String
        let count: Int
        let mimeTypes: [String]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            shortName = try container.decode(String.self)
            count = try container.decode(Int.self)
            mimeTypes = try container.decode([String].self)
        }
    }

    /// One item of a JSON list that mixes scalars and lists of numbers.
    enum JSONScalarOrList: Decodable, Equatable {
        case scalar(JSONScalar)
        case list([Int])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let list = try? container.decode([Int].self) {
                self = .list(list)
            } else {
                self = .scalar(try container.decode(JSONScalar.self))
            }
        }
    }

    /// One item of a mixed JSON list (`[name, offset, length]`, `[text, flag]`): a flag, a number or a text.
    enum JSONScalar: Decodable, Equatable {
        case flag(Bool)
        case number(Int)
        case text(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? container.decode(Int.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }

    struct Group: Decodable {
        let title: String
        let seen: [String: [[JSONScalar]]]
        let participants: [String]
        let alice_history: [String]

    }

    struct CatchUp: Decodable {
        let alice_authorized: Bool
        let bob_authorized: Bool
        let bob_seen_count: Int
        let bob_seen_in_order: Bool
        let bob_first_message: String?
        let bob_total: Int
        let catch_up_seconds: Double
    }

    static var script: URL { Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/server_chat.py") }

    @Test func twoPeopleTalkAndCatchUpAfterTheServerIsKilled() async throws {
        let python = ProcessSupport.python
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        var server = try await ProcessSupport.Server()
        let folder = server.dataDirectory
        // Whichever server runs when the test ends is stopped, and only then is the folder removed.
        defer { server.stopLater() }
        let common = try await server.telethonArguments()

        let first = try await ProcessRunner.runOffPool(
            python, [Self.script.path, "--port", String(try #require(server.ports[2]))] + common, timeout: 120)
        try #require(first.succeeded, "\(first.output) \(first.errorOutput.suffix(3000))")
        let chat = try JSONDecoder().decode(Chat.self, from: first.stdout)
        // Alice's number belongs to DC 1: Telethon followed PHONE_MIGRATE_1 from DC 2.
        #expect(chat.alice_dc == 1 && chat.bob_dc == 2)
        #expect(chat.resolved_id == chat.alice_id)
        #expect(chat.alice_got.text == "hello Alice, see code and a link")
        #expect(chat.alice_got.sender == chat.bob_id)
        #expect(chat.alice_got.entities == chat.bob_sent_entities)
        #expect(
            chat.alice_got.entities.map { $0.first } == [
                .text("MessageEntityBold"), .text("MessageEntityCode"), .text("MessageEntityTextUrl"),
            ])
        // The reply points at Bob's own copy of his message (each box has its own ids).
        #expect(chat.bob_got_reply.text == "hi Bob" && chat.bob_got_reply.reply_to == chat.bob_got_reply.sent_id)
        #expect(
            chat.alice_saw_edit.text == "hello Alice (edited)" && chat.alice_saw_edit.id == chat.alice_saw_edit.was_id)
        #expect(chat.bob_saw_delete.ids == [chat.bob_saw_delete.his_copy])
        #expect(chat.bob_saw_read.max_id == chat.bob_saw_read.his_message)
        #expect(chat.bob_dialogs.map { $0.first } == [chat.alice_id])
        // 12 MB in big-file parts to Alice's DC 1, downloaded whole by Bob from DC 1; a voice note keeps its waveform.
        #expect(chat.files.received_sha256 == chat.files.sent_sha256)
        #expect(
            chat.files.document_dc == 1 && chat.files.file_name == "payload.bin"
                && chat.files.size == 12 * 1024 * 1024 + 123)
        #expect(
            chat.files.voice && chat.files.voice_duration == 3 && chat.files.waveform_matches
                && chat.files.voice_bytes == 2004)
        // The server's own sticker set: six stickers, three animated, two still, one video; the first, sent by Alice,
        // reaches Bob whole.
        #expect(chat.files.sticker_set.shortName == "telegraph" && chat.files.sticker_set.count == 6)
        #expect(
            chat.files.sticker_set.mimeTypes
                == Array(repeating: "application/x-tgsticker", count: 3) + ["image/webp", "image/webp", "video/webm"])
        // The video sticker downloads byte-identical, with its video and sticker attributes and a JPEG thumbnail.
        let video = chat.files.video_sticker
        #expect(video.sha256 == Digest.sha256(ServerVideoStickerAsset.webm).map { String(format: "%02x", $0) }.joined())
        #expect(video.size_matches && video.video == [512, 512, 1] && video.alt == "🟣")
        #expect(video.set_id == ServerBackend.stickerSetId && video.thumbs == ["i", "m"] && video.thumb_jpeg == "ffd8")
        #expect(chat.files.installed_sets == ["telegraph"])
        #expect(
            chat.files.sticker == [
                .flag(true), .text("application/x-tgsticker"), .text("🔷"), .text("1f8b"), .flag(true),
            ])
        // A 1000×600 picture becomes Telegram's sizes made by the server; the largest downloads as a JPEG of that size.
        #expect(
            chat.photos.sizes == [
                [.text("i"), nil, nil], [.text("s"), .number(100), .number(60)],
                [.text("m"), .number(320), .number(192)],
                [.text("x"), .number(800), .number(480)], [.text("y"), .number(1000), .number(600)],
            ])
        #expect(chat.photos.largest == [1000, 600] && chat.photos.stripped)
        #expect(chat.photos.album_grouped && chat.photos.album_photos == [true, true, true])
        // A profile photo set with photos.uploadProfilePhoto shows on the user and downloads from its DC.
        #expect(chat.photos.profile_photo == [.scalar(.text("UserProfilePhoto")), .list([640, 640])])
        // Two-step verification: the code step asks for the password, a wrong one is refused, the right one signs in.
        #expect(chat.password.steps == ["SESSION_PASSWORD_NEEDED", "PASSWORD_HASH_INVALID", "signed in"])
        #expect(chat.password.has_password && chat.password.hint == "horse")
        // A basic group of three: each saw the two others' messages live, in the group.
        #expect(chat.group.title == "Trio")
        #expect(chat.group.seen["alice"] == [[.text("bob here"), .flag(true)], [.text("carol here"), .flag(true)]])
        #expect(chat.group.seen["bob"] == [[.text("alice here"), .flag(true)], [.text("carol here"), .flag(true)]])
        #expect(chat.group.seen["carol"] == [[.text("alice here"), .flag(true)], [.text("bob here"), .flag(true)]])
        #expect(chat.group.participants == ["Alice", "Bob", "Carol"])
        #expect(chat.group.alice_history == ["MessageActionChatCreate", "bob here", "alice here", "carol here"])

        // SIGKILL: nothing flushed on the way out. The new server has new ports, the same data.
        await server.kill()
        server = try await ProcessSupport.Server(dataDirectory: folder)
        let second = try await ProcessRunner.runOffPool(
            python,
            [
                Self.script.path, "--port", String(try #require(server.ports[2])), "--phase", "catch-up", "--count",
                "3000",
                "--dc-ports", server.portList,
            ] + common,
            timeout: 300)
        try #require(second.succeeded, "\(second.output) \(second.errorOutput.suffix(3000))")
        let catchUp = try JSONDecoder().decode(CatchUp.self, from: second.stdout)
        #expect(catchUp.alice_authorized && catchUp.bob_authorized)
        #expect(catchUp.bob_seen_count == 3000, "caught up for \(catchUp.catch_up_seconds) s")
        #expect(catchUp.bob_seen_in_order)
        #expect(catchUp.bob_first_message == "hello Alice (edited)")
        #expect(catchUp.bob_total == 3008)  // the first message, document, voice note, sticker, photo, album of 3, then 3,000
    }
}
