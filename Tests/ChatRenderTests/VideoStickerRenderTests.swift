import ChatConversationFixture
import ChatHistory
import ChatRender
import Foundation
import ImageCore
import MediaResources
import Postbox
import SyncCore
import TelegramCore
import Testing
import TextLayout

/// tg-server's video sticker (WebM, VP9 with alpha) sent by Bob through the server: Ann's client keeps it as a sticker
/// file (`isVideoSticker`, not a video), classifies it as Telegram-iOS does (an animated sticker item, no bubble), and
/// draws its first frame — decoded by libvpx with its alpha, through StickerResources — on the PNG screen; the
/// terminal names it.
@Suite(.serialized) struct VideoStickerRenderTests {
    @Test func aVideoStickerIsReceivedAndDrawnFromItsFirstFrame() async throws {
        try await ChatConversation.make(name: "video-sticker-render").closing(after: check)
    }

    private func check(_ conversation: ChatConversation) async throws {
        let pack = try await StickerPacks.fetch(.name("telegraph"), network: conversation.bob.network)
        let sent = try #require(pack.files.first { $0.isVideoSticker })
        try conversation.bob.enqueue([EnqueueMessage(text: "", media: sent)], to: conversation.ann.peerId)
        let entries = try await conversation.entries(count: ChatConversation.messageCount + 1)
        let message = try #require(entries.flatMap(\.messages).last)
        let file = try #require(message.media.first as? TelegramMediaFile)
        #expect(file.isVideoSticker && file.isSticker && !file.isAnimatedSticker && file.mimeType == "video/webm")
        #expect(file.attributes.contains { if case .video(1, _, false, _, _) = $0 { true } else { false } })
        #expect(ChatMessageItemClassifier.kind(of: [message]) == .animatedSticker)

        let phone = AnnsPhoneScreen(conversation)
        let (style, renderer, loader) = (phone.style, phone.renderer, phone.loader)
        let media = await loader.load(entries, quality: .full)
        #expect(media.failures.isEmpty, "\(media.failures)")
        #expect(media.pictures[message.id] != nil)
        let screen = renderer.render(entries, media: media)
        let item = try #require(screen.geometry.items.last)
        #expect({ if case .sticker = item.content { true } else { false } }())
        #expect(item.mediaCells.first?.drawn == .full && item.side == .incoming)
        // The disc is at the centre of the first frame; its transparent corner shows the chat's background.
        let frame = item.frame
        let centre = try #require(
            screen.pixels.pixel(at: CanvasPoint(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2)))
        #expect(centre.distance(to: CanvasColor(rgb: 0x7E3FD0).pixel) <= 24, "centre \(centre)")
        let corner = try #require(screen.pixels.pixel(at: CanvasPoint(x: frame.x + 3, y: frame.y + 3)))
        #expect(corner.distance(to: style.background.pixel) <= 8, "corner \(corner)")
        // The same pixels in the PNG.
        let png = try PNGCodec.decode(try screen.png())
        let x = Int(frame.x + frame.width / 2), y = Int(frame.y + frame.height / 2)
        let sample = try #require(screen.pixels.pixel(x: x, y: y))
        #expect(png[x, y] == RGBA(r: sample.red, g: sample.green, b: sample.blue, a: sample.alpha))

        let terminal = TerminalChatRenderer(
            width: 80, accountPeerId: conversation.ann.peerId, names: conversation.names, colors: false)
        #expect(terminal.render(entries).joined(separator: "\n").contains("[sticker 🟣]"))
    }
}
