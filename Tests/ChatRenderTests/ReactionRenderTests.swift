import ChatHistory
import ChatRender
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SyncCore
import Testing
import TextLayout

/// Reactions under a message in both renderers, from a real Postbox: each emoji with its count, ours highlighted (in
/// brackets in the terminal, filled with the accent in the PNG), on the message's side; none under a message without;
/// the live view redraws when `updateMessageReactions` replaces the attribute.
@Suite struct ReactionRenderTests {
    static let me = PeerId.user(1)
    static let chat = PeerId.user(42)
    static let start: Int32 = 1_763_000_000  // 13 November 2025, 02:13 UTC

    static func cloudId(_ id: Int32) -> MessageId {
        MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: id)
    }

    static func message(
        _ id: Int32, incoming: Bool, text: String, reactions: ReactionsMessageAttribute?
    ) -> StoreMessage {
        StoreMessage(
            id: .id(cloudId(id)), timestamp: start + id * 60, flags: incoming ? [.incoming] : [],
            authorId: incoming ? chat : me, text: text, attributes: reactions.map { [$0] } ?? [], media: [])
    }

    /// 1 theirs with 👍 2 (one ours) and ❤ 1; 2 ours with 🔥 1 (theirs); 3 theirs without reactions.
    static func conversation(_ directory: TemporaryDirectory) throws -> Postbox {
        registerSyncCoreTypes()
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        try postbox.transactionSync { tx in
            try tx.addMessages([
                message(
                    1, incoming: true, text: "lunch?",
                    reactions: .init(
                        canViewList: true,
                        reactions: [
                            .init(emoticon: "👍", count: 2, chosenOrder: 0), .init(emoticon: "❤", count: 1),
                        ])),
                message(
                    2, incoming: false, text: "at noon",
                    reactions: .init(canViewList: true, reactions: [.init(emoticon: "🔥", count: 1)])),
                message(3, incoming: true, text: "plain", reactions: nil),
            ])
        }
        return postbox
    }

    @Test func theTerminalShowsCountsUnderTheBubbleWithOursInBrackets() throws {
        let directory = TemporaryDirectory(prefix: "reactions-terminal")
        defer { directory.remove() }
        let postbox = try Self.conversation(directory)
        let chatView = try LiveChatView(postbox, chat: Self.chat)
        let renderer = TerminalChatRenderer(width: 60, accountPeerId: Self.me, names: [Self.chat: "Bob"], colors: false)
        let lines = renderer.render(
            try chatView.entries())
        // Under each bubble: the line after its bottom border.
        func under(_ text: String) throws -> String {
            let index = try #require(lines.firstIndex { $0.contains(text) })
            let bottom = try #require(lines[index...].firstIndex { $0.contains("╰") })
            return bottom + 1 < lines.count ? lines[bottom + 1] : ""
        }
        let lunch = try under("lunch?")
        #expect(lunch.hasPrefix("[👍 2]  ❤ 1"), "\(lunch)")
        let noon = try under("at noon")
        #expect(noon.trimmingCharacters(in: .whitespaces) == "🔥 1" && noon.hasPrefix(" "), "ours on the right: \(noon)")
        #expect(try !under("plain").contains("👍"))

        // ANSI: ours in reverse video.
        let coloured = TerminalChatRenderer(width: 60, accountPeerId: Self.me, colors: true).render(
            try chatView.entries())
        #expect(coloured.contains { $0.contains("\u{1B}[1;7m[👍 2]") })

        // Someone takes ❤ back and we take 👍 back: the live view redraws.
        let seen = chatView.recorder.values.count
        try postbox.transactionSync { tx in
            try tx.updateMessage(Self.cloudId(1)) { message in
                var stored = message.toStoreMessage()
                stored.attributes = [
                    ReactionsMessageAttribute(canViewList: true, reactions: [.init(emoticon: "👍", count: 1)])
                ]
                return stored
            }
        }
        #expect(chatView.recorder.waitForEvents(seen + 1, seconds: 5))
        let after = renderer.render(
            try chatView.entries())
        let index = try #require(after.firstIndex { $0.contains("lunch?") })
        let bottom = try #require(after[index...].firstIndex { $0.contains("╰") })
        #expect(after[bottom + 1].hasPrefix("👍 1"), "\(after[bottom + 1])")
    }

    @Test func thePNGDrawsChipsUnderTheBubbleWithOursFilled() throws {
        let directory = TemporaryDirectory(prefix: "reactions-png")
        defer { directory.remove() }
        let postbox = try Self.conversation(directory)
        let fixture = try PhoneScreenFixture(postbox, chat: Self.chat, me: Self.me)
        let style = PhoneScreenFixture.style
        let screen = try fixture.render()
        func bubble(_ id: Int32) throws -> ChatScreenItem { try fixture.bubble(id, on: screen) }
        let lunch = try bubble(1)
        #expect(lunch.reactions.map(\.emoticon) == ["👍", "❤"] && lunch.reactions.map(\.count) == [2, 1])
        #expect(lunch.reactions.map(\.chosen) == [true, false])
        for chip in lunch.reactions {
            #expect(chip.frame.y >= lunch.frame.maxY, "under the bubble")
            #expect(chip.frame.x >= lunch.frame.x)
        }
        #expect(abs(lunch.reactions[0].frame.x - lunch.frame.x) < 1, "incoming: lined up with the bubble's left")
        let noon = try bubble(2)
        let fire = try #require(noon.reactions.first)
        #expect(abs(fire.frame.maxX - noon.frame.maxX) < 1, "ours: lined up with the bubble's right")
        #expect(try bubble(3).reactions.isEmpty)
        // The next row starts below the chips.
        #expect(try bubble(2).frame.y > lunch.reactions.map(\.frame.maxY).max() ?? .infinity)

        // Ink: our chip is filled with the accent, another's is not.
        func share(_ frame: CanvasRect, _ color: CanvasColor) -> Double {
            var hits = 0, total = 0
            for y in Int(frame.y)..<Int(frame.maxY) {
                for x in Int(frame.x)..<Int(frame.maxX) {
                    guard let pixel = screen.pixels.pixel(x: x, y: y) else { continue }
                    total += 1
                    let near = { (channel: UInt8, value: Double) in abs(Double(channel) - value * 255) < 30 }
                    if near(pixel.red, color.red) && near(pixel.green, color.green) && near(pixel.blue, color.blue) {
                        hits += 1
                    }
                }
            }
            return total == 0 ? 0 : Double(hits) / Double(total)
        }
        #expect(share(lunch.reactions[0].frame, style.reactionChosen) > 0.4, "ours is filled")
        #expect(share(lunch.reactions[1].frame, style.reactionChosen) < 0.05, "theirs is not")
    }
}
