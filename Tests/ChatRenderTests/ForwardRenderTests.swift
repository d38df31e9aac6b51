import ChatHistory
import ChatRender
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SyncCore
import Testing
import TextLayout

/// "Forwarded from NAME" in both renderers, from a real Postbox (Telegram-iOS `ChatMessageForwardInfoNode`): the first
/// author's name as the chat's names have it, a hidden author's name from the header, nothing on a message that is not
/// a forward; in the PNG the line heads the bubble, above the text, which makes the bubble taller.
@Suite struct ForwardRenderTests {
    static let me = PeerId.user(1)
    static let chat = PeerId.user(42)
    static let zoe = PeerId.user(77)
    static let start: Int32 = 1_763_000_000

    /// 1 theirs forwarded from Zoe; 2 ours forwarded from someone who hides their name; 3 theirs, the same words as 1
    /// and no forward.
    static func conversation(_ directory: TemporaryDirectory) throws -> Postbox {
        registerSyncCoreTypes()
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        func message(_ id: Int32, incoming: Bool, forward: ForwardSourceInfoAttribute?) -> StoreMessage {
            StoreMessage(
                id: .id(MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: id)),
                timestamp: start + id * 60, flags: incoming ? [.incoming] : [], authorId: incoming ? chat : me,
                text: "same words", attributes: forward.map { [$0] } ?? [], media: [])
        }
        try postbox.transactionSync { tx in
            try tx.addMessages([
                message(1, incoming: true, forward: ForwardSourceInfoAttribute(authorId: zoe, date: start)),
                message(
                    2, incoming: false,
                    forward: ForwardSourceInfoAttribute(authorId: nil, authorName: "Hidden Person", date: start)),
                message(3, incoming: true, forward: nil),
            ])
        }
        return postbox
    }

    static let names: [PeerId: String] = [chat: "Bob", zoe: "Zoe"]

    @Test func theTerminalHeadsTheBubbleWithTheAuthor() throws {
        let directory = TemporaryDirectory(prefix: "forward-terminal")
        defer { directory.remove() }
        let postbox = try Self.conversation(directory)
        let chatView = try LiveChatView(postbox, chat: Self.chat)
        let lines = TerminalChatRenderer(width: 60, accountPeerId: Self.me, names: Self.names, colors: false).render(
            try chatView.entries())
        let zoe = try #require(lines.firstIndex { $0.contains("Forwarded from Zoe") }, "\(lines)")
        let hidden = try #require(lines.firstIndex { $0.contains("Forwarded from Hidden Person") }, "\(lines)")
        // Inside the bubble, just above its words.
        #expect(lines[zoe].hasPrefix("│") && lines[zoe + 1].contains("same words"), "\(lines)")
        #expect(lines[hidden + 1].contains("same words") && hidden > zoe)
        #expect(lines.filter { $0.contains("Forwarded from") }.count == 2, "\(lines)")
    }

    @Test func thePNGDrawsTheLineAboveTheText() throws {
        let directory = TemporaryDirectory(prefix: "forward-png")
        defer { directory.remove() }
        let postbox = try Self.conversation(directory)
        let fixture = try PhoneScreenFixture(postbox, chat: Self.chat, me: Self.me)
        let renderer = ChatScreenRenderer(
            style: PhoneScreenFixture.style, accountPeerId: Self.me, names: Self.names, title: "Bob")
        let screen = renderer.render(
            try fixture.chatView.entries())
        let forwarded = try fixture.bubble(1, on: screen)
        let hidden = try fixture.bubble(2, on: screen)
        let plain = try fixture.bubble(3, on: screen)
        #expect(forwarded.forwardText == "Forwarded from Zoe")
        #expect(hidden.forwardText == "Forwarded from Hidden Person")
        #expect(plain.forwardText == nil && plain.forwardOrigin == nil)
        let origin = try #require(forwarded.forwardOrigin)
        let text = try #require(forwarded.textOrigin)
        #expect(origin.y < text.y && origin.y >= forwarded.frame.y, "the line heads the bubble")
        #expect(origin.x >= forwarded.frame.x && origin.x < forwarded.frame.maxX)
        #expect(forwarded.frame.height > plain.frame.height, "\(forwarded.frame) \(plain.frame)")
        // Our own forward sits on our side with the line inside it.
        let hiddenOrigin = try #require(hidden.forwardOrigin)
        #expect(hidden.side == .outgoing && hiddenOrigin.x >= hidden.frame.x)
    }
}
