import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// A message's reactions as Postbox keeps them: its `ReactionsMessageAttribute`, replaced whole by each
/// `updateMessageReactions` (Telegram-iOS `AccountStateManagementUtils.swift`, `.UpdateMessageReactions`, which
/// merges with the stored attribute only for `min` reactions — tg-server sends none).
enum MessageReactionsState {
    /// Stores `reactions` on message `id`; returns whether it is stored here (a message not stored is left to the
    /// history fetch that brings it with its reactions).
    static func set(_ reactions: Api.MessageReactions, of id: MessageId, transaction tx: Transaction) throws -> Bool {
        guard try tx.messageIndex(id) != nil, let message = try tx.getMessage(id) else { return false }
        let attribute = ReactionsMessageAttribute(apiReactions: reactions)
        let current = message.attributes.lazy.compactMap { $0 as? ReactionsMessageAttribute }.first
        guard current != attribute else { return false }
        try tx.updateMessage(id) { message in
            var stored = message.toStoreMessage()
            stored.attributes.removeAll { $0 is ReactionsMessageAttribute }
            if !attribute.reactions.isEmpty { stored.attributes.append(attribute) }
            return stored
        }
        return true
    }
}
