import ChatHistory
import ChatRender
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SyncCore
import Testing
import TextLayout

/// The rows tg-server's conversation does not have, from messages stored in a real Postbox and drawn at 2× on a
/// taller screen with no pictures: a service message as a centred pill, Arabic (right to left) and Chinese text kept
/// inside their bubbles, a photo with no picture yet as a placeholder cell with the time over it, a file row, large
/// emoji and a sticker without a bubble.
@Suite struct ChatScreenLayoutTests {
    static let me = PeerId.user(1)
    static let chat = PeerId.user(42)
    static let arabic = "مرحبا بك في هانوي"
    static let chinese = "我们明天在河内见面吧，然后一起去吃越南河粉，好不好？我们可以早上八点出发。"

    static func message(
        _ id: Int32, at time: Int32, incoming: Bool = false, text: String = "", media: [Media] = []
    ) -> StoreMessage {
        StoreMessage(
            id: .id(MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: id)), timestamp: time,
            flags: incoming ? [.incoming] : [], authorId: incoming ? chat : me, text: text, attributes: [], media: media
        )
    }

    @Test func serviceRightToLeftPlaceholdersFilesEmojiAndStickers() throws {
        registerSyncCoreTypes()
        let directory = TemporaryDirectory(prefix: "chat-screen-layout")
        defer { directory.remove() }
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        let start: Int32 = 1_763_000_000
        let photo = TelegramMediaImage(
            imageId: MediaId(namespace: Namespaces.Media.cloudImage, id: 1),
            representations: [
                TelegramMediaImageRepresentation(
                    dimensions: PixelDimensions(width: 1280, height: 960),
                    resource: .cloudPhotoSize(
                        datacenterId: 2, photoId: 1, accessHash: 1, fileReference: [], sizeSpec: "y"), type: "y")
            ])
        func file(_ id: Int64, _ mime: String, _ attributes: [TelegramMediaFileAttribute]) -> TelegramMediaFile {
            TelegramMediaFile(
                fileId: MediaId(namespace: Namespaces.Media.cloudFile, id: id),
                resource: .cloudDocument(datacenterId: 2, fileId: id, accessHash: 1, fileReference: [], size: 9_000),
                mimeType: mime, size: 9_000, attributes: attributes)
        }
        try postbox.transactionSync { tx in
            try tx.addMessages([
                Self.message(1, at: start, media: [TelegramMediaAction(action: .groupCreated(title: "Trip"))]),
                Self.message(2, at: start + 60, incoming: true, text: Self.arabic),
                Self.message(3, at: start + 120, text: Self.chinese),
                Self.message(4, at: start + 180, media: [photo]),
                Self.message(
                    5, at: start + 240, incoming: true, media: [file(10, "application/pdf", [.fileName("report.pdf")])]),
                Self.message(6, at: start + 3_000, incoming: true, text: "👍🏽🎉"),
                Self.message(
                    7, at: start + 3_060, incoming: true,
                    media: [
                        file(11, "image/webp", [.sticker(displayText: "🙂", packReference: nil, isMask: false)])
                    ]),
            ])
        }
        let chatView = try LiveChatView(postbox, chat: Self.chat)
        let entries = try chatView.entries()
        let style = ChatScreenStyle(width: 360, height: 1200, scale: 2)
        let screen = ChatScreenRenderer(style: style, accountPeerId: Self.me, names: [Self.chat: "Bob"], title: "Bob")
            .render(entries)
        let items = screen.geometry.items
        #expect(screen.pixels.width == 720 && screen.pixels.height == 2400)
        #expect(screen.geometry.maxScrollOffset == 0, "everything fits")
        #expect(items.count == 8, "\(items.map(\.content))")

        // The service message: a centred pill.
        let service = try #require(items.first { if case .service = $0.content { true } else { false } })
        #expect(service.side == .centre && abs(service.frame.x + service.frame.width / 2 - 360) < 0.5)

        // Text bubbles: every dark pixel of their rows inside the bubble (Arabic starts at the right of its box).
        let bubbles = items.filter { if case .bubble = $0.content { true } else { false } }
        #expect(bubbles.count == 4)
        for bubble in bubbles.prefix(2) {
            var outside = 0, inside = 0
            for y in Int(bubble.frame.y)..<Int(bubble.frame.maxY) {
                for x in 0..<screen.pixels.width {
                    guard let pixel = screen.pixels.pixel(x: x, y: y), pixel.luma < 90 else { continue }
                    if Double(x) >= bubble.frame.x && Double(x) < bubble.frame.maxX {
                        inside += 1
                    } else {
                        outside += 1
                    }
                }
            }
            #expect(inside > 500 && outside == 0, "\(bubble.content): \(inside) inside, \(outside) outside")
        }
        #expect(bubbles[0].side == .incoming && bubbles[1].side == .outgoing)
        #expect(
            bubbles[0].textLines == 1 && bubbles[0].frame.width < style.px(200), "a short Arabic line, a narrow bubble")
        #expect(bubbles[1].textLines >= 2, "the Chinese text wraps")

        // The photo with no picture: a placeholder cell filling the bubble's width, the time in a pill over it.
        let photoRow = bubbles[2]
        let cell = try #require(photoRow.mediaCells.first)
        #expect(cell.drawn == nil && photoRow.mediaCells.count == 1)
        #expect(abs(cell.rect.width / cell.rect.height - 4.0 / 3.0) < 0.01)
        #expect(
            screen.pixels.pixel(x: Int(cell.rect.x + 10), y: Int(cell.rect.y + cell.rect.height / 2))
                == style.placeholder.pixel)
        let time = try #require(photoRow.timeOrigin)
        #expect(time.x > cell.rect.x && time.y > cell.rect.y && time.y < cell.rect.maxY)

        // The file row: a bubble with neither cells nor bars; then the emoji and the sticker without a bubble.
        #expect(bubbles[3].mediaCells.isEmpty && bubbles[3].waveformBars.isEmpty && bubbles[3].side == .incoming)
        let emoji = try #require(items.first { if case .largeEmoji = $0.content { true } else { false } })
        #expect(emoji.fill == nil && emoji.side == .incoming && emoji.frame.height > style.px(style.largeEmojiSize))
        let sticker = try #require(items.last)
        #expect({ if case .sticker = sticker.content { true } else { false } }())
        #expect(sticker.mediaCells.first?.drawn == nil && abs(sticker.frame.width - style.px(style.stickerSide)) < 0.01)
        // Bob's file, emoji and sticker: the emoji is more than ten minutes later, so it starts a new run.
        #expect(bubbles[3].hasTail)
    }
}
