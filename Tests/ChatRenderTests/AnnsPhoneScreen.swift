import ChatConversationFixture
import ChatRender
import MediaResources
import TelegramCore

/// Ann's phone screen of her chat with Bob, as the chat-screen suites draw it: the phone style, the renderer, and the
/// loader that fetches the chat's pictures through Ann's account.
struct AnnsPhoneScreen {
    let style = ChatScreenStyle.phone
    let renderer: ChatScreenRenderer
    let loader: ChatMediaLoader

    init(_ conversation: ChatConversation) {
        renderer = ChatScreenRenderer(
            style: style, accountPeerId: conversation.ann.peerId, names: conversation.names, title: "Bob")
        loader = ChatMediaLoader(
            images: ImageResources(account: conversation.ann), stickers: StickerResources(account: conversation.ann))
    }
}

extension ChatConversation {
    /// Runs `body` on this conversation, then closes it, whether or not `body` threw.
    func closing(after body: (ChatConversation) async throws -> Void) async throws {
        do {
            try await body(self)
        } catch {
            await close()
            throw error
        }
        await close()
    }
}
