import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// Stores dialogs as `messages.getDialogs` and `messages.getPeerDialogs` return them (Telegram-iOS
/// `ManagedChatListHoles` / `resetChannels`), in the caller's transaction: the top messages with their users and
/// chats, a hole below the top message of a chat with nothing stored, each chat's read state, and — for a channel with
/// no stored `ChannelState` — the dialog's pts, where the channel's own update sequence starts; and each chat's draft
/// (`dialog.draft`, into `ChatInputStates`) and notify settings (`dialog.notify_settings`, into
/// `PeerNotificationSettingsEntry`). Returns the messages stored.
func storeDialogs(
    _ dialogs: [Api.Dialog], messages: [Api.Message], users: [Api.User], chats: [Api.Chat], accountPeerId: PeerId,
    transaction tx: Transaction
) throws -> [StoreMessage] {
    var firstStored: [PeerId: Bool] = [:]
    for dialog in dialogs {
        guard case .dialog(let value) = dialog else { continue }
        let peerId = PeerId(value.peer)
        firstStored[peerId] =
            try tx.topMessageIndex(peerId: peerId) == nil
            && tx.getHoles(peerId: peerId, namespace: Namespaces.Message.cloud).isEmpty
    }
    let stored = try storeMessagePage(
        messages: messages, users: users, chats: chats, accountPeerId: accountPeerId, transaction: tx)
    var readStates: [PeerId: [MessageId.Namespace: PeerReadState]] = [:]
    for dialog in dialogs {
        guard case .dialog(let value) = dialog else { continue }
        let peerId = PeerId(value.peer)
        if firstStored[peerId] == true, value.topMessage > 1 {
            try HoleSpaces.addHole(tx, peerId: peerId, range: 1...(value.topMessage - 1))
        }
        // A channel's dialog carries its pts: where its own update sequence starts when nothing is stored.
        if peerId.namespace == Namespaces.Peer.cloudChannel, let pts = value.pts,
            try tx.getPeerChatState(peerId) == nil
        {
            try tx.setPeerChatState(peerId, state: ChannelState(pts: pts))
        }
        // The dialog's draft is the account's current one for the chat (none clears a stale one).
        try ChatInputStates.set(
            value.draft.flatMap(SynchronizeableChatInputState.init(apiDraft:)), for: peerId, transaction: tx)
        // The dialog's notify settings are the account's current ones for the chat.
        try PeerNotificationSettingsEntry.set(
            TelegramPeerNotificationSettings(apiSettings: value.notifySettings), for: peerId, transaction: tx)
        readStates[peerId] = [
            Namespaces.Message.cloud: PeerReadState(
                maxIncomingReadId: value.readInboxMaxId, maxOutgoingReadId: value.readOutboxMaxId,
                maxKnownId: value.topMessage, count: value.unreadCount)
        ]
    }
    if !readStates.isEmpty { try tx.resetIncomingReadStates(readStates) }
    return stored
}
