import ChatHistory
import ChatRender
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SyncCore
import Testing
import TextLayout

/// Our messages' footers in both renderers, from a real Postbox whose outgoing read mark moves: ✓ for a message the
/// server has, ✓✓ once the other side has read it (`applyOutgoingReadMaxId`, what `updateReadHistoryOutbox` does), ◷
/// while sending, `!` when failed, nothing on incoming messages; the live history view redraws ✓ as ✓✓ when the mark
/// moves.
@Suite struct OutgoingStatusRenderTests {
    static let me = PeerId.user(1)
    static let chat = PeerId.user(42)
    static let start: Int32 = 1_763_000_000  // 13 November 2025, 02:13 UTC

    static func message(
        _ id: Int32, minute: Int32, incoming: Bool = false, flags: MessageFlags = [], text: String
    ) -> StoreMessage {
        StoreMessage(
            id: .id(MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: id)),
            timestamp: start + minute * 60, flags: flags.union(incoming ? [.incoming] : []),
            authorId: incoming ? chat : me, text: text, attributes: [], media: [])
    }

    static func cloudId(_ id: Int32) -> MessageId {
        MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: id)
    }

    /// A Postbox with: 1 and 2 ours, read; 3 ours, sent; 4 theirs; 5 ours, sending; 6 ours, failed.
    static func conversation(_ directory: TemporaryDirectory) throws -> Postbox {
        registerSyncCoreTypes()
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        try postbox.transactionSync { tx in
            try tx.addMessages([
                message(1, minute: 0, text: "first"),
                message(2, minute: 1, text: "second"),
                message(3, minute: 2, text: "third"),
                message(4, minute: 3, incoming: true, text: "theirs"),
                message(5, minute: 4, flags: [.unsent], text: "on its way"),
                message(6, minute: 5, flags: [.unsent, .failed], text: "refused"),
            ])
            try tx.applyOutgoingReadMaxId(cloudId(2))
        }
        return postbox
    }

    /// The line of the bubble holding `text`'s footer: the line after the text's.
    static func footer(of text: String, in lines: [String]) throws -> String {
        let index = try #require(lines.firstIndex { $0.contains(text) }, "no line shows \(text)")
        return lines[index + 1]
    }

    @Test func theTerminalShowsOneCheckSentAndTwoRead() throws {
        let directory = TemporaryDirectory(prefix: "outgoing-status")
        defer { directory.remove() }
        let postbox = try Self.conversation(directory)
        let chatView = try LiveChatView(postbox, chat: Self.chat)
        let renderer = TerminalChatRenderer(
            width: 60, accountPeerId: Self.me, names: [Self.chat: "Bob"], colors: false)
        let lines = renderer.render(
            try chatView.entries())

        #expect(try Self.footer(of: "first", in: lines).contains("02:13 ✓✓"))
        #expect(try Self.footer(of: "second", in: lines).contains("02:14 ✓✓"))
        let third = try Self.footer(of: "third", in: lines)
        #expect(third.contains("02:15 ✓") && !third.contains("✓✓"), "\(third)")
        let theirs = try Self.footer(of: "theirs", in: lines)
        #expect(theirs.contains("02:16") && !theirs.contains("✓"), "\(theirs)")
        #expect(try Self.footer(of: "on its way", in: lines).contains("02:17 ◷"))
        #expect(try Self.footer(of: "refused", in: lines).contains("02:18 !"))

        // The other side reads up to 3: the live view's next drawing shows ✓✓ on it.
        let seen = chatView.recorder.values.count
        try postbox.transactionSync { try $0.applyOutgoingReadMaxId(Self.cloudId(3)) }
        #expect(chatView.recorder.waitForEvents(seen + 1, seconds: 5), "the view did not follow the read mark")
        let after = renderer.render(
            try chatView.entries())
        #expect(try Self.footer(of: "third", in: after).contains("02:15 ✓✓"))
        #expect(try Self.footer(of: "on its way", in: after).contains("◷"), "a message being sent stays ◷")
    }

    @Test func thePNGDrawsTwoChecksOnceRead() throws {
        let directory = TemporaryDirectory(prefix: "outgoing-status-png")
        defer { directory.remove() }
        let postbox = try Self.conversation(directory)
        let fixture = try PhoneScreenFixture(postbox, chat: Self.chat, me: Self.me)
        let (style, renderer) = (PhoneScreenFixture.style, fixture.renderer)
        let screen = try fixture.render()
        func bubble(_ id: Int32) throws -> ChatScreenItem { try fixture.bubble(id, on: screen) }
        #expect(try bubble(1).status == .read && bubble(2).status == .read)
        #expect(try bubble(3).status == .sent)
        #expect(try bubble(4).status == nil && bubble(4).statusFrame == nil, "incoming messages show no marks")
        #expect(try bubble(5).status == .sending && bubble(6).status == .failed)

        // Ink: the marks in the outgoing time colour inside their box, right of the time; two checks reach further
        // right than one.
        func inked(_ item: ChatScreenItem, color: CanvasColor) throws -> [(x: Int, y: Int)] {
            let frame = try #require(item.statusFrame)
            #expect(frame.x > (item.timeOrigin?.x ?? .infinity), "the marks come after the time")
            #expect(frame.maxX <= item.frame.maxX, "the marks stay inside the bubble")
            var points: [(x: Int, y: Int)] = []
            for y in Int(frame.y)..<Int(frame.maxY.rounded(.up)) {
                for x in Int(frame.x)..<Int(frame.maxX.rounded(.up)) {
                    guard let pixel = screen.pixels.pixel(x: x, y: y) else { continue }
                    let near = { (channel: UInt8, value: Double) in abs(Double(channel) - value * 255) < 40 }
                    if near(pixel.red, color.red) && near(pixel.green, color.green) && near(pixel.blue, color.blue) {
                        points.append((x, y))
                    }
                }
            }
            return points
        }
        let green = style.outgoingTime
        let sentInk = try inked(bubble(3), color: green)
        let readInk = try inked(bubble(2), color: green)
        #expect(sentInk.count > 10, "one check drawn")
        #expect(
            readInk.count > sentInk.count + 5, "two checks have more ink than one: \(readInk.count) vs \(sentInk.count)"
        )
        let sentFrame = try #require(bubble(3).statusFrame), readFrame = try #require(bubble(2).statusFrame)
        #expect(readFrame.width > sentFrame.width)
        let sentReach = try #require(sentInk.map(\.x).max()) - Int(sentFrame.x)
        let readReach = try #require(readInk.map(\.x).max()) - Int(readFrame.x)
        #expect(readReach >= sentReach + Int(style.px(3)), "the second check is to the right of the first")
        #expect(try inked(bubble(6), color: style.failedMark).count > 10, "the failed disc is red")
        #expect(try inked(bubble(5), color: green).count > 10, "the clock is drawn")

        // Marked read: the same bubble now has two checks.
        let seen = fixture.chatView.recorder.values.count
        try postbox.transactionSync { try $0.applyOutgoingReadMaxId(Self.cloudId(3)) }
        #expect(fixture.chatView.recorder.waitForEvents(seen + 1, seconds: 5))
        let after = renderer.render(
            try fixture.chatView.entries())
        #expect(after.geometry.items.first { $0.content == .bubble([Self.cloudId(3)]) }?.status == .read)
    }
}
