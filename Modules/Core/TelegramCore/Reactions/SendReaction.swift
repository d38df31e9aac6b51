public import Postbox
public import SyncCore
import SyncCoreApi
import TelegramApi

/// Reacting to messages (core.telegram.org "Message reactions", `messages.sendReaction`,
/// `messages.getMessagesReactions`; Telegram-iOS `TelegramCore/Sources/State/ManagedPendingReactions.swift` and
/// `UpdateMessageReactions.swift`). The answer's `updateMessageReactions` goes through the state manager like a push,
/// which stores the counts in the message's `ReactionsMessageAttribute` (`MessageReactionsState`).
extension Account {
    /// Sets our reactions to `messageId` to `emoticons` (standard emoji, in the order chosen; empty removes ours);
    /// `big` asks for the large animation. The server's errors come as `.server`: `REACTION_INVALID` (not a
    /// standard emoji, or not one the chat allows), `REACTIONS_TOO_MANY` (more than one per account, or a new emoji past
    /// the chat's limit), `MESSAGE_ID_INVALID`. Returns the message's reactions as the server answered (also being
    /// stored through the state manager).
    @discardableResult
    public func sendReaction(
        _ messageId: MessageId, emoticons: [String], big: Bool = false
    ) async throws(PeerActionError) -> ReactionsMessageAttribute {
        guard messageId.namespace == Namespaces.Message.cloud else {
            throw .unsupported("\(messageId) is not a sent cloud message")
        }
        let peer = try storedInputPeer(messageId.peerId)
        let answer = try await peerActionRequest(
            Api.functions.messages.sendReaction(
                big: big, peer: peer, msgId: messageId.id,
                reaction: emoticons.map { .reactionEmoji(.init(emoticon: $0)) }))
        try applyActionUpdates(answer)
        guard case .updates(let body) = answer else {
            return ReactionsMessageAttribute(canViewList: false, reactions: [])
        }
        for case .updateMessageReactions(let update) in body.updates where update.msgId == messageId.id {
            return ReactionsMessageAttribute(apiReactions: update.reactions)
        }
        return ReactionsMessageAttribute(canViewList: false, reactions: [])
    }

    /// Asks the server for the reactions of `messageIds` (one chat's; `messages.getMessagesReactions`, as Telegram-iOS
    /// polls the messages on screen: `updateMessageReactions` has no pts, so reactions made while this account was
    /// away come in no difference) and stores them before returning; at most 100 ids.
    public func refreshReactions(_ messageIds: [MessageId]) async throws(PeerActionError) {
        let ids = messageIds.filter { $0.namespace == Namespaces.Message.cloud }.prefix(100)
        guard let peerId = ids.first?.peerId, ids.allSatisfy({ $0.peerId == peerId }) else { return }
        let peer = try storedInputPeer(peerId)
        let answer = try await peerActionRequest(
            Api.functions.messages.getMessagesReactions(peer: peer, id: ids.map(\.id)))
        guard case .updates(let body) = answer else { return }
        let accountPeerId = self.peerId
        do {
            try postbox.transactionSync { tx in
                _ = try UpdateBatchApplier(accountPeerId: accountPeerId).storePeers(
                    users: body.users, chats: body.chats, transaction: tx)
                for case .updateMessageReactions(let update) in body.updates {
                    let id = MessageId(
                        peerId: PeerId(update.peer), namespace: Namespaces.Message.cloud, id: update.msgId)
                    _ = try MessageReactionsState.set(update.reactions, of: id, transaction: tx)
                }
            }
        } catch {
            throw .storage("storing the reactions: \(error)")
        }
    }
}
