import Postbox
import SyncCore

/// Marking a voice note or round video played (Telegram-iOS `markMessageContentAsConsumedInteractively` and the
/// `updateReadMessagesContents` case of `replayFinalState`): its `ConsumableContentMessageAttribute` becomes consumed.
enum ConsumedContents {
    /// Marks stored message `id` played; returns whether it was unplayed (a message without the attribute, or not
    /// stored, is left alone).
    static func markConsumed(_ id: MessageId, transaction tx: Transaction) throws -> Bool {
        guard let message = try tx.getMessage(id), message.isMediaUnread else { return false }
        try tx.updateMessage(id) { message in
            var stored = message.toStoreMessage()
            stored.attributes.removeAll { $0 is ConsumableContentMessageAttribute }
            stored.attributes.append(ConsumableContentMessageAttribute(consumed: true))
            return stored
        }
        return true
    }
}
