// Secret-chat notices: deleting messages, clearing history, screenshot notices and typing.

import AccountNetworking
import CryptoUtils
import Foundation
import Network
public import Postbox
import SecretApi
import SecretChats
import SyncCore
import Synchronization
import TelegramApi

extension SecretChatManager {
    // MARK: Deleting and screenshot notices

    /// Deletes messages of the chat here and on the other side (`decryptedMessageActionDeleteMessages` with their
    /// random_ids), the deletion and the sealed notice in one transaction.
    public func deleteMessages(_ ids: [MessageId], chatId: Int32) async throws(SecretChatManagerError) {
        try await sendAction(chatId: chatId) { tx, record in
            var randomIds: [Int64] = []
            for id in ids {
                guard id.peerId == record.peerId, let randomId = try tx.getMessage(id)?.globallyUniqueId else {
                    throw SecretChatManagerError.unknownMessage(id.id)
                }
                randomIds.append(randomId)
            }
            try Self.deleteMessages(randomIds: randomIds, record: &record, tx: tx)
            return .decryptedMessageActionDeleteMessages(.init(randomIds: randomIds))
        }
    }

    /// Clears the chat's history here and on the other side (`decryptedMessageActionFlushHistory`).
    public func clearHistory(chatId: Int32) async throws(SecretChatManagerError) {
        try await sendAction(chatId: chatId) { tx, record in
            try Self.deleteHistory(record: &record, tx: tx)
            return .decryptedMessageActionFlushHistory
        }
    }

    /// Tells the other side this user took a screenshot of these messages (`decryptedMessageActionScreenshotMessages`);
    /// both sides keep a service message saying so.
    public func notifyScreenshot(of ids: [MessageId], chatId: Int32) async throws(SecretChatManagerError) {
        let now = clock()
        let accountPeerId = self.accountPeerId
        try await sendAction(chatId: chatId) { tx, record in
            let randomIds = try ids.compactMap { try tx.getMessage($0)?.globallyUniqueId }
            _ = try tx.addMessages([
                StoreMessage(
                    id: .partial(record.peerId, Namespaces.Message.local),
                    globallyUniqueId: Int64(bitPattern: SecureRandom.uint64()),
                    timestamp: now, authorId: accountPeerId, text: "",
                    media: [TelegramMediaAction(action: .historyScreenshot)])
            ])
            return .decryptedMessageActionScreenshotMessages(.init(randomIds: randomIds))
        }
    }

    /// A user-level action as the chat's next message: `change` alters the stored chat and names the action, then it
    /// is sealed and queued, all in one transaction; then the outbox is sent.
    func sendAction(
        chatId: Int32, _ change: (Transaction, inout SecretChatRecord) throws -> SecretApi.DecryptedMessageAction
    ) async throws(SecretChatManagerError) {
        let now = clock()
        let policy = rekeyPolicy
        try write { tx in
            guard var record = try SecretChatStorage.record(chatId, tx: tx) else {
                throw SecretChatManagerError.unknownChat(chatId)
            }
            guard var session = record.session else { throw SecretChatManagerError.notActive(chatId) }
            let action = try change(tx, &record)
            let outgoing = session.send(
                .decryptedMessageService(.init(randomId: Int64(bitPattern: SecureRandom.uint64()), action: action)),
                now: now,
                policy: policy)
            try Self.queue(outgoing, chatId: chatId, record: &record, tx: tx)
            record.phase = .active(session)
            try storeRecord(record, tx: tx)
        }
        await flush(chatId: chatId)
    }

    /// Deletes the chat's messages with these random_ids, their timers and kept file locations.
    static func deleteMessages(randomIds: [Int64], record: inout SecretChatRecord, tx: Transaction) throws {
        var ids: [MessageId] = []
        for randomId in randomIds {
            if let id = try tx.messageId(peerId: record.peerId, globallyUniqueId: randomId) { ids.append(id) }
            try tx.removeKeychainEntry(forKey: SecretChatStorage.file(record.chatId, randomId: randomId))
        }
        try tx.deleteMessages(ids)
        if var timers = record.timers {
            timers.remove(ids.map { (namespace: $0.namespace, id: $0.id) })
            record.timers = timers
        }
    }

    /// Deletes every message of the chat (`decryptedMessageActionFlushHistory`), with their timers.
    static func deleteHistory(record: inout SecretChatRecord, tx: Transaction) throws {
        var randomIds: [Int64] = []
        while true {
            let batch = try tx.earlierMessages(peerId: record.peerId, before: nil, count: 256)
            guard !batch.isEmpty else { break }
            randomIds += batch.compactMap(\.globallyUniqueId)
            try tx.deleteMessages(batch.map(\.id))
        }
        for randomId in randomIds {
            try tx.removeKeychainEntry(forKey: SecretChatStorage.file(record.chatId, randomId: randomId))
        }
        record.timers = nil
    }

    // MARK: Typing

    /// Tells the other side this user is typing (`messages.setEncryptedTyping`; the relay passes it on, unstored).
    public func sendTyping(chatId: Int32) async throws(SecretChatManagerError) {
        guard let record = try record(chatId: chatId) else { throw .unknownChat(chatId) }
        do {
            _ = try await network.request(
                Api.functions.messages.setEncryptedTyping(
                    peer: .inputEncryptedChat(.init(chatId: chatId, accessHash: record.accessHash)), typing: true))
        } catch { throw .network("\(error)") }
    }

    /// How long a typing notice lasts without another (a typing client repeats it every few seconds;
    /// core.telegram.org `messages.setTyping`, `messages.setEncryptedTyping`).
    public static let typingDuration: Double = 6

    /// Whether the other side of chat `chatId` is typing now: an `updateEncryptedChatTyping` (or a
    /// `decryptedMessageActionTyping`) came in the last `typingDuration` seconds and no message since.
    public func isOtherSideTyping(chatId: Int32) -> Bool {
        let now = Date().timeIntervalSince1970
        return typingUntil.withLock { ($0[chatId] ?? 0) > now }
    }

    /// The chats whose other side is typing now.
    public var typingChats: [Int32] {
        let now = Date().timeIntervalSince1970
        return typingUntil.withLock { state in state.filter { $0.value > now }.map(\.key).sorted() }
    }

    func noteTyping(chatId: Int32, active: Bool) {
        let until = Date().timeIntervalSince1970 + Self.typingDuration
        typingUntil.withLock { state in state[chatId] = active ? until : nil }
    }
}
