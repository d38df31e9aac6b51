// Updates for a chat this account has not stored yet: our `requestEncryption` answered, but the answer not yet
// written, while the other side already accepted and wrote.

import Postbox
import Synchronization
import TelegramApi

extension SecretChatManager {
    /// An update that named a chat this account did not know yet, in the order it came.
    enum UnknownChatUpdate: Sendable {
        case acceptance(Api.EncryptedChat)
        case message(Api.EncryptedMessage)
    }

    /// Chats whose updates are kept while their `requestEncryption` answer is on its way, at most.
    static let unknownChatLimit = 16

    /// Keeps an update for a chat not stored yet (at most `SecretChatRecord.earlyLimit` per chat and
    /// `unknownChatLimit` chats, in memory: the race it covers is within one running process). A chat we never asked
    /// for keeps a slot until the limit pushes it out — the lowest chat id goes first, since the server numbers chats
    /// in order — and nothing of it is ever opened.
    func keepForUnknownChat(_ chatId: Int32, _ update: UnknownChatUpdate) {
        unknownChats.withLock { kept in
            if kept[chatId] == nil, kept.count >= Self.unknownChatLimit, let lowest = kept.keys.min() {
                kept.removeValue(forKey: lowest)
            }
            guard (kept[chatId]?.count ?? 0) < SecretChatRecord.earlyLimit else { return }
            kept[chatId, default: []].append(update)
        }
    }

    /// Applies, in this transaction and in the order they came, the updates kept for `chatId` before its record was
    /// stored: the acceptance makes the chat active (opening what came before it), messages are opened or kept as
    /// `early`. Returns whether any was applied.
    func applyKeptUpdates(chatId: Int32, tx: Transaction) throws -> Bool {
        let kept = unknownChats.withLock { $0.removeValue(forKey: chatId) } ?? []
        for update in kept {
            switch update {
            case .acceptance(let chat): _ = try applyEncryption(chat, tx: tx)
            case .message(let message): _ = try receive(message, tx: tx)
            }
        }
        return !kept.isEmpty
    }
}
