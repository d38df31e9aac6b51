import ChatConversationFixture
import ChatHistory
import ChatRender
import Foundation
import MediaResources
import Postbox
import SyncCore
import TelegramCore
import TestVectors
import Testing
import TextLayout

/// A link preview's picture end to end: pages served by Tests/Fixtures/webpages/page_server.py on 127.0.0.1, an
/// in-process tg-server allowed to fetch them, Bob sending Ann two links — an article with an `og:image` (a 640×480
/// picture of one colour) and the picture itself. Ann's Postbox keeps each page's picture (`TelegramMediaWebpage.image`),
/// `ChatMediaLoader` fetches it as a photo, and the PNG draws it — the article's small square under its lines, the
/// picture link's as wide as the text — in the served colour; the terminal writes "▎[image]" under each preview.
@Suite(.serialized) struct WebpagePictureRenderTests {
    /// page_server.py's PICTURE_RGB.
    static let pictureColor: UInt32 = 0xC8_1E28

    @Test func aPreviewsPictureIsFetchedAndDrawn() async throws {
        let python = ProcessRunner.venvPython
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv: run `make deps`")
        let pages = try await LoopbackPageServer.start()
        defer { pages.stop() }
        let port = pages.port

        let conversation = try await ChatConversation.start(
            name: "webpage-picture", webPageAllow: ["127.0.0.1:\(port)"])
        try await conversation.closing { try await check($0, port: port) }
    }

    private func check(_ conversation: ChatConversation, port: Int) async throws {
        let (_, annId) = try await conversation.introduce()
        let article = "read http://127.0.0.1:\(port)/with-image"
        let picture = "see http://127.0.0.1:\(port)/picture.png"
        try conversation.bob.enqueue([EnqueueMessage(text: article)], to: annId)
        try conversation.bob.enqueue([EnqueueMessage(text: picture)], to: annId)
        try await conversation.waitForAnn("both previews with their pictures in Ann's Postbox") { messages in
            let pages = messages.compactMap { $0.media.lazy.compactMap { $0 as? TelegramMediaWebpage }.first }
            return pages.count == 2 && pages.allSatisfy { !$0.isPending && $0.image != nil }
        }
        let entries = try await conversation.entries(count: 2)
        let messages = entries.flatMap(\.messages)
        let articleMessage = try #require(messages.first { $0.text == article })
        let pictureMessage = try #require(messages.first { $0.text == picture })
        let articlePage = try #require(articleMessage.media.compactMap { $0 as? TelegramMediaWebpage }.first)
        let picturePage = try #require(pictureMessage.media.compactMap { $0 as? TelegramMediaWebpage }.first)
        #expect(articlePage.type == "article" && !articlePage.hasLargeImage)
        #expect(articlePage.title == "Telegraph & friends")
        #expect(picturePage.type == "photo" && picturePage.hasLargeImage)
        #expect(articlePage.image?.largestRepresentation?.dimensions == PixelDimensions(width: 640, height: 480))

        let phone = AnnsPhoneScreen(conversation)
        let (style, renderer, loader) = (phone.style, phone.renderer, phone.loader)
        let media = await loader.load(entries, quality: .full)
        #expect(media.failures.isEmpty, "\(media.failures)")
        #expect(media.pictures[articleMessage.id]?.stage == .full)
        #expect(media.pictures[pictureMessage.id]?.stage == .full)

        let screen = renderer.render(entries, media: media)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("webpage-picture.png").path
        try Data(try screen.png()).write(to: URL(fileURLWithPath: path))
        print("WebpagePictureRenderTests: the screen is at \(path)")
        let bubbles = screen.geometry.items
        let articleBubble = try #require(bubbles.first { $0.content == .bubble([articleMessage.id]) })
        let pictureBubble = try #require(bubbles.first { $0.content == .bubble([pictureMessage.id]) })
        let small = try #require(articleBubble.mediaCells.first { $0.messageId == articleMessage.id })
        let large = try #require(pictureBubble.mediaCells.first { $0.messageId == pictureMessage.id })
        #expect(small.drawn == .full && large.drawn == .full)
        #expect(abs(small.rect.width - style.px(60)) < 0.5 && abs(small.rect.height - small.rect.width) < 0.5)
        #expect(large.rect.width > 3 * small.rect.width)
        #expect(abs(large.rect.width / large.rect.height - 4.0 / 3.0) < 0.02)
        // Under the text, inside the bubble.
        for (cell, bubble) in [(small, articleBubble), (large, pictureBubble)] {
            #expect(cell.rect.y > (bubble.textOrigin?.y ?? .infinity))
            #expect(cell.rect.maxY < bubble.frame.maxY && cell.rect.maxX < bubble.frame.maxX)
            let centre = CanvasPoint(x: cell.rect.x + cell.rect.width / 2, y: cell.rect.y + cell.rect.height / 2)
            let pixel = try #require(screen.pixels.pixel(at: centre))
            #expect(pixel.distance(to: CanvasColor(rgb: Self.pictureColor).pixel) <= 24, "\(pixel)")
        }

        let terminal = TerminalChatRenderer(
            width: 80, accountPeerId: conversation.ann.peerId, names: conversation.names, colors: false)
        let lines = terminal.render(entries)
        #expect(lines.filter { $0.contains("▎[image]") }.count == 2, "\(lines.joined(separator: "\n"))")
    }
}
