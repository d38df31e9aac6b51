import AudioWaveform
import ChatHistory
import ChatRender
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SyncCore
import Testing

/// A conversation stored in a real Postbox, drawn for an 60-column terminal: no line is wider than the terminal,
/// ours on the right and theirs on the left, entity styles as ANSI attributes, CJK wrapped by its double width, a
/// reply header, an album as a row, a voice note's waveform, a sticker and large emoji without a bubble, the date.
@Suite struct TerminalChatRendererTests {
    static let me = PeerId.user(1)
    static let chat = PeerId.user(42)

    static func message(
        _ id: Int32, at time: Int32, incoming: Bool = false, text: String = "", media: [Media] = [],
        attributes: [MessageAttribute] = [],
        groupingKey: Int64? = nil
    ) -> StoreMessage {
        StoreMessage(
            id: .id(MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: id)), groupingKey: groupingKey,
            timestamp: time,
            flags: incoming ? [.incoming] : [], authorId: incoming ? chat : me, text: text, attributes: attributes,
            media: media)
    }

    static func photo(_ id: Int64) -> TelegramMediaImage {
        TelegramMediaImage(
            imageId: MediaId(namespace: Namespaces.Media.cloudImage, id: id),
            representations: [
                TelegramMediaImageRepresentation(
                    dimensions: PixelDimensions(width: 1280, height: 960),
                    resource: .cloudPhotoSize(
                        datacenterId: 2, photoId: id, accessHash: 1, fileReference: [], sizeSpec: "y"), type: "y")
            ])
    }

    static func file(_ id: Int64, mime: String, attributes: [TelegramMediaFileAttribute]) -> TelegramMediaFile {
        TelegramMediaFile(
            fileId: MediaId(namespace: Namespaces.Media.cloudFile, id: id),
            resource: .cloudDocument(datacenterId: 2, fileId: id, accessHash: 1, fileReference: [], size: 9_000),
            mimeType: mime, size: 9_000,
            attributes: attributes)
    }

    @Test func aConversationFitsTheTerminalWithItsStylesAndSides() throws {
        registerSyncCoreTypes()
        let directory = TemporaryDirectory(prefix: "chat-render")
        defer { directory.remove() }
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        let start: Int32 = 1_763_000_000  // 13 November 2025, 02:13 UTC
        let cjk = "我们明天在河内见面吧，然后一起去吃越南河粉，好不好？我们可以早上八点出发。"
        let waveform = AudioWaveform(samples: (0..<100).map { UInt16(($0 * 7) % 32) }, peak: 31).makeBitstream()
        try postbox.transactionSync { tx in
            try tx.addMessages([
                Self.message(
                    1, at: start, text: "hello bold world",
                    attributes: [
                        TextEntitiesMessageAttribute(entities: [MessageTextEntity(range: 6..<10, type: .bold)])
                    ]),
                Self.message(
                    2, at: start + 60, incoming: true, text: "sure",
                    attributes: [
                        ReplyMessageAttribute(
                            messageId: MessageId(peerId: Self.chat, namespace: Namespaces.Message.cloud, id: 1))
                    ]),
                Self.message(3, at: start + 120, incoming: true, text: cjk),
                Self.message(4, at: start + 180, media: [Self.photo(1)], groupingKey: 9),
                Self.message(5, at: start + 180, media: [Self.photo(2)], groupingKey: 9),
                Self.message(6, at: start + 180, media: [Self.photo(3)], groupingKey: 9),
                Self.message(
                    7, at: start + 240, incoming: true,
                    media: [
                        Self.file(
                            10, mime: "audio/ogg",
                            attributes: [
                                .audio(isVoice: true, duration: 3, title: nil, performer: nil, waveform: waveform)
                            ])
                    ]),
                Self.message(
                    8, at: start + 300,
                    media: [
                        Self.file(
                            11, mime: "image/webp",
                            attributes: [.sticker(displayText: "🙂", packReference: nil, isMask: false)])
                    ]),
                Self.message(9, at: start + 360, incoming: true, text: "👍🏽🎉"),
            ])
        }
        let chatView = try LiveChatView(postbox, chat: Self.chat)
        let entries = try chatView.entries()
        let renderer = TerminalChatRenderer(width: 60, accountPeerId: Self.me, names: [Self.chat: "Bob"])
        let lines = renderer.render(entries)
        let text = lines.joined(separator: "\n")

        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 60 }, "a line is wider than the terminal")
        #expect(lines.first.map { $0.contains("13 November 2025") } == true)
        // Ours on the right (ending at column 60), theirs from column 0.
        let ours = try #require(lines.first { $0.contains("hello") })
        #expect(DisplayWidth.of(ours) == 60 && ours.hasPrefix(" "))
        let theirs = try #require(lines.first { $0.contains("sure") })
        #expect(!theirs.hasPrefix(" "))
        // Bold as SGR 1 around exactly "bold".
        #expect(ours.contains("\u{1B}[1mbold\u{1B}[0m"))
        // The reply header names us and quotes the message.
        #expect(text.contains("┃ You: hello bold world"))
        // CJK wraps by its double width: several lines, each within the bubble, the text whole in order.
        let cjkLines = lines.filter { $0.contains("我") || $0.contains("吧") || $0.contains("出") || $0.contains("粉") }
        #expect(cjkLines.count >= 2)
        #expect(cjkLines.allSatisfy { DisplayWidth.of($0) <= 60 })
        let cjkBody = lines.compactMap { line -> String? in
            guard let open = line.range(of: "│ "), let close = line.range(of: " │", options: .backwards) else {
                return nil
            }
            let inside = String(line[open.upperBound..<close.lowerBound])
            return inside.unicodeScalars.contains { $0.properties.isIdeographic } ? inside : nil
        }.joined().replacingOccurrences(of: "\u{1B}[0m", with: "").replacingOccurrences(of: "\u{1B}[37m", with: "")
            .trimmingCharacters(in: .whitespaces)
        #expect(cjkBody.replacingOccurrences(of: " ", with: "") == cjk)
        // The album as one row of cells, the voice note's waveform and duration, the sticker and large emoji bare.
        #expect(text.contains("[photo] [photo] [photo]"))
        let voice = try #require(lines.first { $0.contains("🎤") })
        #expect(voice.contains("0:03") && voice.contains("█") && voice.contains("▁"))
        #expect(text.contains("[sticker 🙂]"))
        #expect(lines.contains { $0.contains("👍🏽🎉") && !$0.contains("│") })

        // Without colours: the same layout, no escape sequences.
        let plain = TerminalChatRenderer(width: 60, accountPeerId: Self.me, names: [Self.chat: "Bob"], colors: false)
            .render(entries)
        #expect(!plain.joined().contains("\u{1B}"))
        #expect(
            plain.count == lines.count && zip(plain, lines).allSatisfy { DisplayWidth.of($0) == DisplayWidth.of($1) })
    }

    @Test func widthsFollowUnicode() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("河内") == 4)
        #expect(DisplayWidth.of("👍🏽") == 2)
        #expect(DisplayWidth.of("👨‍👩‍👧") == 2)
        #expect(DisplayWidth.of("Tiếng Việt") == 10, "combining marks take no column")
        #expect(DisplayWidth.of("\u{1B}[1mbold\u{1B}[0m") == 4, "escape sequences take none")
    }
}
