import ChatHistory
import ChatRender
import Foundation
import Postbox
import PostboxTesting
import SignalTesting
import SyncCore
import Testing
import TextLayout

/// Link previews drawn under the message's text in both renderers, from a real Postbox: the site name, title and
/// description; a page still being fetched draws nothing until the shared page is replaced (what `updateWebPage` does).
@Suite struct WebpageRenderTests {
    static let me = PeerId.user(1)
    static let chat = PeerId.user(42)

    static func page(id: Int64, pending: Bool = false) -> TelegramMediaWebpage {
        pending
            ? TelegramMediaWebpage(webpageId: id, isPending: true, url: "http://example.com/a")
            : TelegramMediaWebpage(
                webpageId: id, isPending: false, url: "http://example.com/a", displayUrl: "example.com/a",
                siteName: "Example Site", title: "Telegraph & friends", text: "A page about link previews.")
    }

    static func conversation(_ directory: TemporaryDirectory) throws -> Postbox {
        registerSyncCoreTypes()
        let postbox = try Postbox.open(accountPath: directory.path + "/account", encryption: nil)
        try postbox.transactionSync { tx in
            _ = try tx.addMessages(
                [
                    (1, "read http://example.com/a", page(id: 7)),
                    (2, "slow http://example.com/b", page(id: 9, pending: true)),
                ]
                .map { id, text, media in
                    StoreMessage(
                        id: .id(MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: id)),
                        timestamp: 1_763_000_000 + id * 60, flags: [.incoming], authorId: chat, text: text,
                        attributes: [], media: [media])
                })
        }
        return postbox
    }

    @Test func theTerminalDrawsThePreviewUnderTheTextAndFillsInAPendingOne() throws {
        let directory = TemporaryDirectory(prefix: "webpage-terminal")
        defer { directory.remove() }
        let postbox = try Self.conversation(directory)
        let chatView = try LiveChatView(postbox, chat: Self.chat)
        let renderer = TerminalChatRenderer(width: 80, accountPeerId: Self.me, names: [Self.chat: "Bob"], colors: false)
        let lines = renderer.render(
            try chatView.entries())
        let text = try #require(lines.firstIndex { $0.contains("read http://example.com/a") })
        let site = try #require(lines.firstIndex { $0.contains("▎Example Site") })
        let title = try #require(lines.firstIndex { $0.contains("▎Telegraph & friends") })
        let description = try #require(lines.firstIndex { $0.contains("▎A page about link previews.") })
        #expect(text < site && site < title && title < description)
        // The pending page draws nothing yet: one preview on the screen.
        #expect(lines.filter { $0.contains("▎Example Site") }.count == 1)
        #expect(lines.contains { $0.contains("slow http://example.com/b") })

        let seen = chatView.recorder.values.count
        try postbox.transactionSync { tx in
            try tx.updateMedia(MediaId(namespace: Namespaces.Media.cloudWebpage, id: 9), update: Self.page(id: 9))
        }
        #expect(chatView.recorder.waitForEvents(seen + 1, seconds: 5))
        let after = renderer.render(
            try chatView.entries())
        #expect(after.filter { $0.contains("▎Example Site") }.count == 2, "\(after.joined(separator: "\n"))")
    }

    @Test func thePNGLaysThePreviewOutAsLinesUnderTheText() throws {
        let directory = TemporaryDirectory(prefix: "webpage-png")
        defer { directory.remove() }
        let postbox = try Self.conversation(directory)
        let fixture = try PhoneScreenFixture(postbox, chat: Self.chat, me: Self.me)
        let screen = try fixture.render()
        // The text, then site name, title and description; the pending page's message is its text alone.
        #expect(try fixture.bubble(1, on: screen).textLines == 4)
        #expect(try fixture.bubble(2, on: screen).textLines == 1)
    }
}
