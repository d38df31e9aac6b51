import ChatConversationFixture
import ChatHistory
import ChatRender
import Foundation
import ImageCore
import MediaResources
import Postbox
import TelegramCore
import Testing
import TextLayout

/// A conversation made through tg-server by two of our accounts (`ChatConversation`: texts, entities, a reply, an
/// album of three photos, a sticker, a voice note), read from the receiving account's Postbox into history entries
/// and drawn as a 1080×2400 phone screen: first with the photos' stripped thumbnails, then with the fetched sizes.
/// The checks are the layout's geometry and sampled pixels, not a golden image.
@Suite(.serialized) struct ChatScreenRendererTests {
    @Test func aConversationThroughTgServerIsDrawnAsAPhoneScreen() async throws {
        try await ChatConversation.make(name: "chat-render-tests").closing(after: check)
    }

    private func check(_ conversation: ChatConversation) async throws {
        let entries = try await conversation.entries()
        let phone = AnnsPhoneScreen(conversation)
        let (style, renderer, loader) = (phone.style, phone.renderer, phone.loader)

        // Before the download: the photos' stripped thumbnails (the sizes are still on the server).
        let thumbnails = await loader.load(entries, quality: .firstAvailable)
        #expect(thumbnails.failures.isEmpty, "\(thumbnails.failures)")
        let early = renderer.render(entries, media: thumbnails)
        let earlyAlbum = try #require(early.geometry.items.first { $0.mediaCells.count == 3 })
        #expect(earlyAlbum.mediaCells.allSatisfy { $0.drawn == .strippedThumbnail })
        for (cell, photo) in zip(earlyAlbum.mediaCells, ChatConversation.photos) {
            let pixel = try #require(early.pixels.pixel(at: centre(of: cell.rect)))
            #expect(
                pixel.distance(to: CanvasColor(rgb: photo.color).pixel) <= 40, "thumbnail \(pixel) for \(photo.color)")
        }

        // The fetched sizes, at the bottom (the newest message above the input panel) and scrolled to the top.
        let media = await loader.load(entries, quality: .full)
        #expect(media.failures.isEmpty, "\(media.failures)")
        let screen = renderer.render(entries, media: media)
        let png = try screen.png()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chat-render-tests.png").path
        try Data(png).write(to: URL(fileURLWithPath: path))
        print("ChatScreenRendererTests: the screen is at \(path) (\(png.count) bytes)")
        let topScreen = renderer.render(entries, media: media, scrollOffset: screen.geometry.maxScrollOffset)
        try Data(try topScreen.png()).write(
            to: URL(fileURLWithPath: path.replacingOccurrences(of: ".png", with: "-top.png")))
        #expect(screen.geometry.width == 1080 && screen.geometry.height == 2400)
        #expect(screen.pixels.width == 1080 && screen.pixels.height == 2400)
        #expect(topScreen.geometry.scrollOffset == screen.geometry.maxScrollOffset)

        // Each screen on its own: sides, order, no overlaps, bubble fills sampled in their left padding.
        let rightEdge = Double(screen.geometry.width) - style.px(style.sideMargin + style.tailWidth)
        let leftEdge = style.px(style.sideMargin + style.tailWidth)
        for shown in [screen, topScreen] {
            let items = shown.geometry.items
            let bubbles = items.filter { if case .bubble = $0.content { true } else { false } }
            for bubble in bubbles where bubble.side == .outgoing { #expect(abs(bubble.frame.maxX - rightEdge) < 0.5) }
            for bubble in bubbles where bubble.side == .incoming { #expect(abs(bubble.frame.x - leftEdge) < 0.5) }
            for ours in bubbles where ours.side == .outgoing {
                for theirs in bubbles where theirs.side == .incoming {
                    #expect(ours.frame.x + ours.frame.width / 2 > theirs.frame.x + theirs.frame.width / 2)
                }
            }
            for (upper, lower) in zip(items, items.dropFirst()) {
                #expect(upper.frame.maxY <= lower.frame.y + 0.01, "\(upper.content) overlaps \(lower.content)")
            }
            for bubble in bubbles
            where bubble.mediaCells.isEmpty && bubble.frame.y > shown.geometry.historyArea.y
                && bubble.frame.maxY < shown.geometry.historyArea.maxY
            {
                let point = CanvasPoint(x: bubble.frame.x + style.px(4), y: bubble.frame.y + bubble.frame.height / 2)
                #expect(shown.pixels.pixel(at: point) == bubble.fill?.pixel, "\(bubble.content) at \(point)")
            }
        }
        #expect((screen.geometry.items.last?.frame.maxY ?? .infinity) <= screen.geometry.historyArea.maxY)

        // The whole history, oldest first: the top screen's rows, then the bottom screen's new ones.
        let topContents = Set(topScreen.geometry.items.map(\.content))
        let rows: [(item: ChatScreenItem, screen: RenderedChatScreen)] =
            topScreen.geometry.items.map { ($0, topScreen) }
            + screen.geometry.items.filter { !topContents.contains($0.content) }.map { ($0, screen) }
        func isBubble(_ item: ChatScreenItem) -> Bool { if case .bubble = item.content { true } else { false } }
        let incoming = rows.filter { isBubble($0.item) && $0.item.side == .incoming }
        let outgoing = rows.filter { isBubble($0.item) && $0.item.side == .outgoing }
        #expect(outgoing.count == 2 && incoming.count == 4, "\(rows.map(\.item.content))")
        #expect(incoming.first?.item.fill == style.incomingBubble && outgoing.first?.item.fill == style.outgoingBubble)

        // Tails: Ann's two merge, only the second has one; Bob's run ends with his voice note.
        #expect(outgoing.map(\.item.hasTail) == [false, true])
        #expect(incoming.map(\.item.hasTail) == [false, false, false, true])
        let tailed = try #require(outgoing.last)
        let tailPixel = tailed.screen.pixels.pixel(
            x: Int(tailed.item.frame.maxX + style.px(style.tailWidth) * 0.3), y: Int(tailed.item.frame.maxY) - 2)
        #expect(try #require(tailPixel).distance(to: try #require(tailed.item.fill).pixel) < 40, "the tail")
        let besideTail = tailed.screen.pixels.pixel(
            x: Int(tailed.item.frame.maxX + 4), y: Int(tailed.item.frame.y + 10))
        #expect(besideTail == style.background.pixel)

        // The date header centred, first; the unread separator between Ann's messages and Bob's.
        let header = try #require(rows.first)
        #expect({ if case .dateHeader = header.item.content { true } else { false } }())
        #expect(abs(header.item.frame.x + header.item.frame.width / 2 - Double(screen.geometry.width) / 2) < 0.5)
        let pillPoint = CanvasPoint(
            x: header.item.frame.x + style.px(5), y: header.item.frame.y + header.item.frame.height / 2)
        #expect(
            try #require(header.screen.pixels.pixel(at: pillPoint)).distance(to: style.pill.over(style.background)) <= 2
        )
        let unreadIndex = try #require(rows.firstIndex { $0.item.content == .unread })
        #expect(rows[unreadIndex - 1].item.side == .outgoing && rows[unreadIndex + 1].item.side == .incoming)

        // Entities: the link and the mention are drawn in the link colour.
        let linked = try #require(incoming.first)
        let bluish = pixels(linked.screen.pixels, in: linked.item.frame).filter { Int($0.blue) > Int($0.red) + 60 }
        #expect(bluish.count > 200, "the link colour shows (\(bluish.count) pixels)")
        #expect(linked.item.textLines >= 2)

        // The reply: its header above its text, quoting Ann.
        let reply = try #require(incoming.first { $0.item.reply != nil }?.item)
        let replyHeader = try #require(reply.reply)
        #expect(replyHeader.author == "Ann")
        #expect(ChatConversation.greeting.hasPrefix(replyHeader.quote.replacingOccurrences(of: "…", with: "")))
        let replyText = try #require(reply.textOrigin)
        #expect(replyHeader.bar.maxY <= replyText.y + 0.01)
        #expect(replyHeader.bar.x > reply.frame.x && replyHeader.bar.maxX < reply.frame.maxX)

        // The album: one cell on top, two below side by side, inside the bubble, each showing its photo's colour.
        let album = try #require(incoming.first { $0.item.mediaCells.count == 3 })
        let cells = album.item.mediaCells.map(\.rect)
        #expect(cells[0].maxY <= cells[1].y && cells[1].y == cells[2].y && cells[1].maxX <= cells[2].x)
        #expect(abs(cells[0].width - (cells[2].maxX - cells[1].x)) < 0.5)
        for cell in cells {
            let frame = album.item.frame
            #expect(cell.x >= frame.x && cell.maxX <= frame.maxX && cell.y >= frame.y && cell.maxY <= frame.maxY)
        }
        #expect(album.item.mediaCells.allSatisfy { $0.drawn == .full })
        for (cell, photo) in zip(album.item.mediaCells, ChatConversation.photos) {
            let pixel = try #require(album.screen.pixels.pixel(at: centre(of: cell.rect)))
            #expect(pixel.distance(to: CanvasColor(rgb: photo.color).pixel) <= 12, "photo \(pixel) for \(photo.color)")
        }
        #expect(try #require(album.item.textOrigin).y >= cells[2].maxY, "the caption is under the album")

        // The voice note: bars in the accent with the bubble between them, loud bars tall and quiet ones short.
        let voice = try #require(incoming.last)
        let bars = voice.item.waveformBars
        let accent = try #require(voice.item.waveformColor)
        let fill = try #require(voice.item.fill)
        #expect(bars.count >= 30)
        let tallest = bars.map(\.height).max() ?? 0
        #expect(bars.contains { $0.height < tallest * 0.3 } && bars.contains { $0.height > tallest * 0.95 })
        let probeY = (bars.map(\.maxY).max() ?? 0) - tallest * 0.8
        for (bar, next) in zip(bars, bars.dropFirst()) {
            let foot = try #require(
                voice.screen.pixels.pixel(at: CanvasPoint(x: bar.x + bar.width / 2, y: bar.maxY - 3)))
            #expect(foot.distance(to: accent.pixel) <= 8, "bar at \(bar.x): \(foot)")
            let gap = try #require(
                voice.screen.pixels.pixel(at: CanvasPoint(x: (bar.maxX + next.x) / 2, y: bar.maxY - 3)))
            #expect(gap.distance(to: fill.pixel) <= 40, "gap after \(bar.x): \(gap)")
            let high = try #require(voice.screen.pixels.pixel(at: CanvasPoint(x: bar.x + bar.width / 2, y: probeY)))
            if bar.height > tallest * 0.95 { #expect(high.distance(to: accent.pixel) <= 8) }
            if bar.height < tallest * 0.3 { #expect(high == fill.pixel) }
        }

        // The sticker: its first frame drawn, without a bubble.
        let sticker = try #require(rows.first { if case .sticker = $0.item.content { true } else { false } })
        #expect(sticker.item.mediaCells.first?.drawn == .full && sticker.item.side == .incoming)
        let ink = pixels(sticker.screen.pixels, in: sticker.item.frame, step: 6).filter {
            $0.distance(to: style.background.pixel) > 30
        }
        #expect(ink.count > 100, "the sticker is drawn")

        // The PNG.
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let decoded = try PNGCodec.decode(png)
        #expect(decoded.width == 1080 && decoded.height == 2400)
        let sample = try #require(screen.pixels.pixel(x: 540, y: 1200))
        #expect(decoded[540, 1200] == RGBA(r: sample.red, g: sample.green, b: sample.blue, a: sample.alpha))
    }

    private func centre(of rect: CanvasRect) -> CanvasPoint {
        CanvasPoint(x: rect.x + rect.width / 2, y: rect.y + rect.height / 2)
    }

    /// Every `step`-th pixel in `rect`.
    private func pixels(_ pixels: CanvasPixels, in rect: CanvasRect, step: Int = 1) -> [CanvasPixel] {
        var result: [CanvasPixel] = []
        for y in stride(from: Int(rect.y), to: Int(rect.maxY), by: step) {
            for x in stride(from: Int(rect.x), to: Int(rect.maxX), by: step) {
                if let pixel = pixels.pixel(x: x, y: y) { result.append(pixel) }
            }
        }
        return result
    }
}
