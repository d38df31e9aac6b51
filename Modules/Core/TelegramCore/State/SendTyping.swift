public import Postbox
import TelegramApi

extension Account {
    /// Tells a chat this user is typing, or has stopped (`messages.setTyping` with `sendMessageTypingAction` or
    /// `sendMessageCancelAction`; core.telegram.org "messages.setTyping"): the server passes it to the chat's other
    /// members and stores nothing. A notice lasts `PeerActivities.duration` seconds on the other side, so a client
    /// repeats it every few seconds while the user types, as Telegram-iOS does. Secret chats use
    /// `SecretChatManager.sendTyping`.
    public func sendTyping(in peerId: PeerId, stopped: Bool = false) async throws(MessageActionError) {
        let peer = try MessageCalls.inputPeer(peerId, accountPeerId: self.peerId, postbox: postbox)
        _ = try await MessageCalls.call(
            Api.functions.messages.setTyping(
                peer: peer, action: stopped ? .sendMessageCancelAction : .sendMessageTypingAction),
            network: network)
    }
}
