import ChatHistory
import ChatRender
import Postbox
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import SyncCore
import Testing

/// A chat with Bob drawn as the render tests draw it: the newest 44 messages of the live history view, on a
/// 360×1200 point screen at scale 2.
struct PhoneScreenFixture {
    /// The screen's style: its colours are what the pixel checks look for.
    static let style = ChatScreenStyle(width: 360, height: 1200, scale: 2)

    let chat: PeerId
    let renderer: ChatScreenRenderer
    /// The live history view, kept open: a test changes Postbox, waits for the next emission and draws again.
    let chatView: LiveChatView

    /// Opens `chat`'s history view in `postbox` and waits for its first emission.
    init(_ postbox: Postbox, chat: PeerId, me: PeerId) throws {
        self.chat = chat
        renderer = ChatScreenRenderer(style: Self.style, accountPeerId: me, names: [chat: "Bob"], title: "Bob")
        chatView = try LiveChatView(postbox, chat: chat)
    }

    /// The chat as the view last emitted it, drawn.
    func render() throws -> RenderedChatScreen {
        renderer.render(try chatView.entries())
    }

    /// The bubble of cloud message `id` on `screen`.
    func bubble(_ id: Int32, on screen: RenderedChatScreen) throws -> ChatScreenItem {
        let messageId = MessageId(peerId: chat, namespace: Namespaces.Message.cloud, id: id)
        return try #require(screen.geometry.items.first { $0.content == .bubble([messageId]) }, "no bubble \(id)")
    }
}
