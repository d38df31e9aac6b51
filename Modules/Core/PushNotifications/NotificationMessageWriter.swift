public import Postbox
import SyncCore

/// Stores what a push says as a message (Telegram's notification extension does this before the app runs): in the
/// cloud namespace with the id the server gave it, incoming, from the sender, with the text and date the push
/// carries and a `NotificationMessageAttribute`, so the chat list and unread count are right at once and the app's
/// own copy (from `getDifference` or a history page) replaces it rather than adding a second. A sender or group the
/// account does not know yet is stored with the name the push gives; a chat with nothing stored gets a hole below
/// the message, as the app marks a chat it first hears of.
public enum NotificationMessageWriter {
    /// What `store` did.
    public enum Outcome: Equatable, Sendable {
        case stored(MessageId)
        /// The account already had the message (the app stored it first, or the push came twice).
        case alreadyStored(MessageId)
        /// The push carries no text (media, other kinds): nothing is stored, the app fetches the message.
        case notStored(MessageId)
    }

    /// The id a push's message has in the account (cloud namespace, the server's id in the account's box).
    public static func messageId(of push: PushNotification) -> MessageId {
        MessageId(peerId: push.chatId, namespace: Namespaces.Message.cloud, id: push.messageId)
    }

    /// The message a push stands for.
    public static func message(for push: PushNotification, text: String, now: Int32) -> StoreMessage {
        StoreMessage(
            id: .id(messageId(of: push)),
            timestamp: push.date ?? now, flags: [.incoming], authorId: .user(push.fromId), text: text,
            attributes: [NotificationMessageAttribute()])
    }

    /// Stores the push's message in one transaction's worth of writes.
    public static func store(
        _ push: PushNotification, text: String, now: Int32, transaction tx: Transaction
    ) throws -> Outcome {
        let id = messageId(of: push)
        if try tx.messageIndex(id) != nil { return .alreadyStored(id) }
        let message = message(for: push, text: text, now: now)
        var peers: [Peer] = []
        if try tx.getPeer(.user(push.fromId)) == nil {
            peers.append(
                TelegramUser(
                    id: .user(push.fromId), accessHash: nil, firstName: push.senderName, lastName: nil, username: nil,
                    phone: nil))
        }
        if push.chatId.namespace == Namespaces.Peer.cloudGroup, try tx.getPeer(push.chatId) == nil {
            peers.append(
                TelegramGroup(
                    id: push.chatId, title: push.chatTitle ?? "", participantCount: 0, membership: .member,
                    creationDate: message.timestamp, version: 0))
        }
        if !peers.isEmpty { try tx.updatePeers(peers) }
        try CloudHoleSpaces.addHolesBelowFirstMessages([message], transaction: tx)
        _ = try tx.addMessages([message])
        return .stored(id)
    }
}
