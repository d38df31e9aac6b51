import ChatHistory
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SyncCore
import TelegramCore
import Testing
import TextLayout

@testable import ChatRender

/// Pinned messages as Telegram-iOS shows them: the pin's service line names the message ("Ann pinned “hi all”", or
/// "a message" when it is not loaded), and the chat's newest pinned message heads the screen in the pinned bar — a
/// line over the terminal history, a bar under the PNG's navigation bar that pushes the history down.
@Suite struct PinnedMessageRenderTests {
    typealias Chats = ChannelChatRenderTests
    static let group = Chats.group

    static func pinService(_ id: Int32, pinning target: Int32, by author: PeerId) -> StoreMessage {
        Chats.message(
            group, id, from: author, incoming: author != Chats.me,
            media: [TelegramMediaAction(action: .pinnedMessageUpdated)],
            attributes: [
                ReplyMessageAttribute(
                    messageId: MessageId(peerId: group, namespace: Namespaces.Message.cloud, id: target),
                    threadMessageId: nil, quoteText: nil)
            ])
    }

    /// The group's messages with 3 ("hi all") pinned by Ann, then 4 pinned by me, and a pin of a message not loaded.
    static var messages: [StoreMessage] {
        var messages = Chats.groupMessages
        messages[2].tags.insert(.pinned)
        messages[3].tags.insert(.pinned)
        return messages + [
            pinService(8, pinning: 3, by: Chats.ann), pinService(9, pinning: 4, by: Chats.me),
            pinService(10, pinning: 1_000, by: Chats.ben),
        ]
    }

    /// The entries and the bar of the newest pinned message, from a real Postbox (`PinnedMessages.newest`).
    static func chat(in directory: TemporaryDirectory) throws -> ([ChatHistoryEntry], PinnedMessageBar) {
        let entries = try Chats.entries(group, messages, in: directory)
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        let newest = try postbox.readTransactionSync { tx in try PinnedMessages.newest(in: group, transaction: tx) }
        return (entries, PinnedMessageBar(try #require(newest)))
    }

    @Test func theServiceLineNamesThePinnedMessageAndTheBarShowsTheNewest() throws {
        let directory = TemporaryDirectory(prefix: "pinned-render")
        defer { directory.remove() }
        let (entries, bar) = try Self.chat(in: directory)
        #expect(bar.messageId.id == 4 && bar.text == "hello Ann", "the newest pinned message")
        let renderer = TerminalChatRenderer(width: 60, accountPeerId: Chats.me, names: Chats.names, colors: false)
        let lines = renderer.render(entries)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("· Ann pinned “hi all” ·"), "\(text)")
        #expect(text.contains("· Me pinned “hello Ann” ·"), "\(text)")
        #expect(text.contains("· Ben pinned a message ·"), "a pin of a message not loaded: \(text)")
        #expect(!text.contains("service message"))

        let head = renderer.pinnedBarLines(bar)
        #expect(head == ["📌 Pinned Message: hello Ann", String(repeating: "─", count: 60)])
        let long = PinnedMessageBar(messageId: bar.messageId, text: String(repeating: "long words ", count: 20))
        let shortened = renderer.pinnedBarLines(long)
        #expect(DisplayWidth.of(shortened[0]) <= 60 && shortened[0].hasSuffix("…"), "\(shortened[0])")
        let coloured = TerminalChatRenderer(width: 60, accountPeerId: Chats.me, names: Chats.names).pinnedBarLines(bar)
        #expect(coloured[0].contains("Pinned Message") && coloured[0].contains("\u{1B}[0mhello Ann"))
    }

    @Test func thePNGScreenDrawsThePinnedBarUnderTheTitleAndTheHistoryBelowIt() throws {
        let directory = TemporaryDirectory(prefix: "pinned-png")
        defer { directory.remove() }
        let (entries, bar) = try Self.chat(in: directory)
        let style = ChatScreenStyle(width: 360, height: 1400, scale: 2)
        let plain = ChatScreenRenderer(style: style, accountPeerId: Chats.me, names: Chats.names, title: "Builders")
        let withBar = ChatScreenRenderer(
            style: style, accountPeerId: Chats.me, names: Chats.names, title: "Builders", pinnedBar: bar)
        let without = plain.render(entries)
        let screen = withBar.render(entries)
        #expect(without.geometry.pinnedBar == nil)
        let geometry = try #require(screen.geometry.pinnedBar)
        let navigation = style.px(style.navigationBarHeight)
        #expect(geometry.frame.y == navigation && geometry.frame.height == style.px(48))
        #expect(geometry.frame.width == Double(style.pixelWidth))
        #expect(geometry.text == "hello Ann")
        #expect(screen.geometry.historyArea.y == geometry.frame.maxY, "the history starts under the bar")
        #expect(screen.geometry.historyArea.height == without.geometry.historyArea.height - geometry.frame.height)
        #expect(screen.geometry.items.allSatisfy { $0.frame.y >= geometry.frame.maxY - 1 || $0.frame.maxY <= 0 })
        // The accent line is drawn in the accent colour; the bar's background is the bars' colour.
        let accent = geometry.accent
        let pixel = try #require(
            screen.pixels.pixel(x: Int(accent.x + accent.width / 2), y: Int(accent.y + accent.height / 2)))
        #expect(pixel == style.incomingAccent.pixel, "\(pixel)")
        let background = try #require(
            screen.pixels.pixel(x: Int(geometry.frame.maxX) - 4, y: Int(geometry.frame.y + 4)))
        #expect(background == style.bars.pixel)
        // Text pixels (darker than the bar) lie where the title and the text are drawn.
        var dark = 0
        for y in Int(geometry.textOrigin.y)..<Int(geometry.textOrigin.y + style.px(style.replySize) * 1.3) {
            for x in Int(geometry.textOrigin.x)..<Int(geometry.textOrigin.x + style.px(80)) {
                if let p = screen.pixels.pixel(x: x, y: y), Int(p.red) + Int(p.green) + Int(p.blue) < 300 { dark += 1 }
            }
        }
        #expect(dark > 30, "the pinned text is drawn (\(dark) dark pixels)")
        // The service pills name the pinned messages.
        let services = screen.geometry.items.filter { if case .service = $0.content { true } else { false } }
        #expect(services.count == 7)
    }
}
