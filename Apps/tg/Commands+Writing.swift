import ArgumentParser
import CommandLineOutput
import Foundation
import MediaResources
import Postbox
import SyncCore
import TelegramClient
import TelegramCore

struct Send: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Send a message: markdown text, and optionally a reply, a photo, an album, a file, a video, a voice note, a sticker, a location, a contact, a die or a poll.",
        discussion: """
            The text is markdown (see 'tg --help') and becomes the caption when media is sent. Waits until the server \
            has the message and prints it (its id is what --reply, edit, delete and download take). Uploads show a \
            progress bar on standard error when it is a terminal.

            Places, contacts, dice and polls: --location 21.0285,105.8542 (with --venue TITLE --address A, or --live \
            SECONDS for a live location); --contact PHONE FIRST [LAST]; --dice 🎲 (🎯 🏀 ⚽ 🎳 🎰: the server rolls \
            it); --poll "Question?" "Answer 1" "Answer 2" … (2 to 12 answers; --multiple, --public for visible \
            voters, --quiz N for a quiz whose right answer is N, with --solution TEXT). Vote with 'tg vote'.

            Videos: --video FILE sends it with its duration, size and first frame as the thumbnail (FFmpeg probes \
            it); add --round for a round video message (square, at most 60 s) or --gif for a GIF (a silent loop).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: me, @username, +phone, user:ID, chat:ID, secret:ID or its name.") var peer: String
    @Argument(help: "The text, as markdown.") var markdown: String = ""
    @Option(help: "Reply to this message id.") var reply: Int32?
    @Option(help: "A picture (JPEG, PNG, WebP) to send as a photo (at most 1280 px, re-encoded as JPEG).") var photo:
        String?
    @Option(parsing: .upToNextOption, help: "Up to 10 pictures or files sent as one album.") var album: [String] = []
    @Option(help: "A file to send as a document.") var file: String?
    @Option(help: "A video (MP4, WebM…) to send with its duration, size and a thumbnail.") var video: String?
    @Flag(help: "With --video: a round video message (square, at most 60 s).") var round = false
    @Flag(help: "With --video: a GIF (a silent MP4 loop).") var gif = false
    @Option(help: "A WAV file to send as a voice note (encoded to Ogg/Opus with its waveform).") var voice: String?
    @Option(help: "A sticker from a set, <set>/<n> (n from 1), e.g. telegraph/1.") var sticker: String?
    @Flag(help: "Send the text without a link preview (no_webpage).") var noPreview = false
    @Option(help: ArgumentHelp("One of your saved GIFs, by its number in 'tg gifs'.", valueName: "N"))
    var savedGif: Int?
    @Option(
        help: ArgumentHelp(
            "Schedule the text instead: the server sends it at TIME (ISO 8601, UTC without a zone, or +90s, +10m, +2h, +1d).",
            valueName: "TIME")) var at: String?
    @Option(help: ArgumentHelp("Send a location, LAT,LONG in degrees.", valueName: "LAT,LONG")) var location: String?
    @Option(help: "With --location: the venue's title.") var venue: String?
    @Option(help: "With --venue: the venue's address.") var address: String?
    @Option(help: ArgumentHelp("With --location: share it live for SECONDS (60–86400).", valueName: "SECONDS"))
    var live: Int32?
    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Send a contact: PHONE FIRST [LAST].", valueName: "PHONE FIRST [LAST]")) var contact:
        [String] = []
    @Option(help: "Roll a die: 🎲 🎯 🏀 ⚽ 🎳 🎰.") var dice: String?
    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Send a poll: the question, then 2 to 12 answers.", valueName: "QUESTION ANSWER…"))
    var poll: [String] = []
    @Flag(help: "With --poll: several answers may be chosen.") var multiple = false
    @Flag(name: .customLong("public"), help: "With --poll: everyone sees who voted for what.") var publicVoters = false
    @Option(help: ArgumentHelp("With --poll: a quiz whose right answer is N (from 1).", valueName: "N")) var quiz: Int?
    @Option(help: "With --quiz: the explanation shown after answering.") var solution: String?

    func validate() throws {
        try validateCards()
        let media =
            [photo != nil, !album.isEmpty, file != nil, video != nil, voice != nil, sticker != nil, savedGif != nil]
            .filter { $0 }.count + cardOptions
        if media > 1 {
            throw ValidationError(
                "give at most one of --photo, --album, --file, --video, --voice, --sticker, --saved-gif, --location, "
                    + "--contact, --dice, --poll")
        }
        if round && gif { throw ValidationError("give at most one of --round, --gif") }
        if noPreview && (media > 0 || at != nil) { throw ValidationError("--no-preview goes with a text alone") }
        if (round || gif) && video == nil { throw ValidationError("--round and --gif go with --video") }
        if media == 0 && markdown.isEmpty { throw ValidationError("nothing to send: give a text or media") }
        if album.count > 10 { throw ValidationError("an album holds at most 10 items, not \(album.count)") }
        if let at {
            if media > 0 { throw ValidationError("--at schedules a text; give no media with it") }
            guard let date = ScheduledCommands.parseTime(at) else {
                throw ValidationError("--at takes ISO 8601 (2026-12-01T09:30:00Z) or +10m, +2h, +1d, not \(at)")
            }
            if date <= Date() { throw ValidationError("--at \(at) is not in the future") }
        }
        if let sticker, StickerChoice(sticker) == nil {
            throw ValidationError("--sticker takes <set>/<n>, e.g. telegraph/1")
        }
        for path in [photo, file, video, voice].compactMap({ $0 }) + album
        where !FileManager.default.isReadableFile(atPath: path) {
            throw ValidationError("\(path) cannot be read")
        }
    }

    func run() async throws {
        if let at, let date = ScheduledCommands.parseTime(at) { return try await schedule(at: date) }
        let sent = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            if SecretChatting.isSecret(peerId) {
                if cardOptions > 0 || video != nil || savedGif != nil {
                    throw ToolError.badInput(
                        "a secret chat takes no videos, saved GIFs, locations, contacts, dice or polls here",
                        remedy: "send them in a cloud chat")
                }
                return [try await sendSecret(peerId, account)]
            }
            let (text, entities) = OutgoingText.parse(markdown)
            let replyTo = reply.map { MessageId(peerId: peerId, namespace: Namespaces.Message.cloud, id: $0) }
            var messages: [EnqueueMessage] = []
            var label = "message"
            if let photo {
                messages = [
                    EnqueueMessage(
                        text: text, entities: entities, replyTo: replyTo, media: try preparePhoto(photo, account))
                ]
                label = (photo as NSString).lastPathComponent
            } else if let file {
                messages = [
                    EnqueueMessage(
                        text: text, entities: entities, replyTo: replyTo, file: try prepareFile(file, account))
                ]
                label = (file as NSString).lastPathComponent
            } else if let video {
                let kind: OutgoingVideoKind = round ? .round : gif ? .gif : .video
                let prepared: TelegramMediaFile
                do { prepared = try OutgoingVideo.prepare(path: video, kind: kind, for: account) } catch {
                    throw ToolError.badInput("\(video): \(error)", remedy: "give a video FFmpeg can read")
                }
                messages = [EnqueueMessage(text: text, entities: entities, replyTo: replyTo, file: prepared)]
                label = kind == .video ? (video as NSString).lastPathComponent : kind.rawValue
            } else if let voice {
                let note: TelegramMediaFile
                do { note = try OutgoingVoiceNote.prepare(path: voice, for: account) } catch {
                    throw ToolError.badInput("\(voice): \(error)", remedy: "give a PCM WAV file")
                }
                messages = [EnqueueMessage(text: text, entities: entities, replyTo: replyTo, file: note)]
                label = "voice note"
            } else if let sticker, let choice = StickerChoice(sticker) {
                messages = [EnqueueMessage(text: "", replyTo: replyTo, media: try await choice.file(account: account))]
            } else if let savedGif {
                let gif = try await GifCommands.saved(savedGif, account: account)
                messages = [EnqueueMessage(text: text, entities: entities, replyTo: replyTo, media: gif)]
                label = "GIF"
            } else if let card = cardMedia() {
                messages = [EnqueueMessage(text: text, entities: entities, replyTo: replyTo, media: card.media)]
                label = card.label
            } else if !album.isEmpty {
                let key = EnqueueMessage.newGroupingKey()
                for (index, path) in album.enumerated() {
                    let media: any Media =
                        MimeTypes.isPhoto(path) ? try preparePhoto(path, account) : try prepareFile(path, account)
                    messages.append(
                        EnqueueMessage(
                            text: index == 0 ? text : "", entities: index == 0 ? entities : [],
                            replyTo: index == 0 ? replyTo : nil,
                            media: media, groupingKey: key))
                }
                label = "album of \(album.count)"
            } else {
                var message = EnqueueMessage(text: text, entities: entities, replyTo: replyTo)
                message.disableLinkPreviews = noPreview
                messages = [message]
            }
            let progress = TransferProgress("upload \(label)")
            defer { progress.finish() }
            let name = chatName(peerId, account)
            return try await MessageSending.send(messages, to: peerId, account: account, timeout: global.timeout) {
                progress.update($0)
            }
            .map { MessageSummary($0, chatName: name) }
        }
        if output.json { return try Output.json(sent.count == 1 ? AnyEncodable(sent[0]) : AnyEncodable(sent)) }
        for summary in sent { print("sent \(summary.line())") }
    }

    /// A secret chat takes what a cloud chat takes but albums: the markdown's entities, a reply, a photo (with its
    /// thumbnail inside the encrypted message), a voice note, a file, or a sticker (named on the server, not uploaded).
    func sendSecret(_ peerId: PeerId, _ account: Account) async throws -> MessageSummary {
        if !album.isEmpty {
            throw ToolError.badInput(
                "a secret chat takes no albums here", remedy: "send the pictures one by one with --photo")
        }
        var attachment: SecretChatting.Attachment?
        if let photo {
            do { attachment = .media(try SecretChatMediaPreparation.photo(path: photo)) } catch {
                throw ToolError.badInput("\(photo): \(error)", remedy: "give a JPEG, PNG or WebP picture")
            }
        } else if let voice {
            do { attachment = .media(try SecretChatMediaPreparation.voice(path: voice)) } catch {
                throw ToolError.badInput("\(voice): \(error)", remedy: "give a PCM WAV file")
            }
        } else if let sticker, let choice = StickerChoice(sticker) {
            attachment = .media(.external(try await choice.file(account: account)))
        } else if let file {
            attachment = .file(file)
        }
        let message = try await SecretChatting.send(
            markdown: markdown, attachment: attachment, replyTo: reply, chatId: SecretChatting.chatId(peerId),
            account: account, timeout: global.timeout)
        return MessageSummary(message, chatName: chatName(peerId, account))
    }

    func preparePhoto(_ path: String, _ account: Account) throws -> TelegramMediaImage {
        do { return try OutgoingPhoto.prepare(path: path, for: account) } catch {
            throw ToolError.badInput("\(path): \(error)", remedy: "give a JPEG, PNG or WebP picture")
        }
    }

    func prepareFile(_ path: String, _ account: Account) throws -> TelegramMediaFile {
        let name = (path as NSString).lastPathComponent
        do { return try account.prepareFile(path: path, name: name, mimeType: MimeTypes.guess(name)) } catch {
            throw ToolError.badInput("\(path): \(error)", remedy: "check the file can be read")
        }
    }
}

/// One value or an array, encoded as itself.
struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

struct Edit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Replace the text of a message you sent (markdown).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat.") var peer: String
    @Argument(help: "The message id (see 'tg history').") var id: Int32
    @Argument(help: "The new text, as markdown.") var markdown: String

    func run() async throws {
        let edited = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let message = try await MessageCommands.edit(
                account, peerId: peerId, id: id, markdown: markdown, timeout: global.timeout)
            return MessageSummary(message, chatName: chatName(peerId, account))
        }
        if output.json { return try Output.json(edited) }
        print("edited \(edited.line())")
    }
}

struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete messages: for you, or with --revoke for everyone.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat.") var peer: String
    @Argument(help: "Message ids.") var ids: [Int32]
    @Flag(help: "Delete for the other side too.") var revoke = false

    func run() async throws {
        try await global.withOnlineAccount { _, account in
            try await MessageCommands.delete(
                account, peerId: try await resolvePeer(peer, account), ids: ids, revoke: revoke)
        }
        if output.json { return try Output.json(["deleted": ids]) }
        print("deleted \(ids.map(String.init).joined(separator: ", "))")
    }
}

struct Read: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mark a chat read, up to its newest message or --up-to ID.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat.") var peer: String
    @Option(help: "Read up to this message id.") var upTo: Int32?

    struct Result: Encodable {
        var chat: String
        var readUpTo: Int32
    }

    func run() async throws {
        let result = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let maxId = try await MessageCommands.read(account, peerId: peerId, upTo: upTo, timeout: global.timeout)
            return Result(chat: PeerResolver.handle(peerId), readUpTo: maxId)
        }
        if output.json { return try Output.json(result) }
        print("read \(result.chat) up to \(result.readUpTo)")
    }
}

struct Download: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Download a message's photo or file (largest photo size; a document whole) in parts, with a progress bar; "
            + "or, with --first-frame, a video's first frame streamed without the rest of the file.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat.") var peer: String
    @Argument(help: "The message id.") var id: Int32
    @Option(name: .shortAndLong, help: "A file to write, or a folder to write into under the file's name (default: .).")
    var out = "."
    @Option(
        name: .customLong("first-frame"),
        help: ArgumentHelp(
            "Instead of the file, write a video's first frame to this PNG, fetching only the parts the decode needs.",
            valueName: "png"))
    var firstFrame: String?

    struct Result: Encodable {
        var path: String
        var size: Int64
    }

    /// What `--first-frame` wrote and fetched.
    struct FirstFrameResult: Encodable {
        var path: String
        var width: Int
        var height: Int
        var fetchedBytes: Int64
        var requests: Int
        var fileSize: Int64
    }

    func run() async throws {
        if let firstFrame { return try await runFirstFrame(firstFrame) }
        let result = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let message = try await HistoryLoading.find(account, peerId: peerId, id: id, timeout: global.timeout)
            let progress = TransferProgress("download \(id)")
            defer { progress.finish() }
            let path = try await MediaDownload.download(message, to: out, account: account, timeout: global.timeout) {
                progress.update($0)
            }
            let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
            return Result(path: path, size: size)
        }
        if output.json { return try Output.json(result) }
        print("saved \(result.path) (\(result.size) bytes)")
    }

    /// `--first-frame`: the video streamed until its first frame decodes (`StreamedVideo`), written as PNG.
    func runFirstFrame(_ png: String) async throws {
        let result = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let message = try await HistoryLoading.find(account, peerId: peerId, id: id, timeout: global.timeout)
            let streamed: StreamedFirstFrame
            do throws(StreamedVideoError) {
                streamed = try await StreamedVideo.firstFrame(of: message, account: account)
            } catch {
                if case .notAVideo = error { throw ClientError.badInput("message \(id) has no video") }
                throw ClientError.refused("streaming message \(id)'s video: \(error)")
            }
            do { try Data(streamed.png()).write(to: URL(fileURLWithPath: png)) } catch {
                throw ClientError.storage("\(png): \(error) — check the folder exists and is writable")
            }
            let size = MediaDownload.source(of: message)?.size ?? 0
            return FirstFrameResult(
                path: png, width: streamed.width, height: streamed.height, fetchedBytes: streamed.fetchedBytes,
                requests: streamed.requests, fileSize: size)
        }
        if output.json { return try Output.json(result) }
        print(
            "saved \(result.path) (\(result.width)×\(result.height), first frame; fetched \(result.fetchedBytes) of "
                + "\(result.fileSize) bytes in \(result.requests) parts)")
    }
}
