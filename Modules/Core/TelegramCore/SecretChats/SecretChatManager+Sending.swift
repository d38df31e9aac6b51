// Sending a secret chat's messages: text, the sealed-send path every outgoing message takes, and the outbox flush.

import AccountNetworking
import CryptoUtils
import Foundation
import Network
public import Postbox
import SecretApi
import SecretChats
public import SyncCore
import Synchronization
import TLRuntime
import TelegramApi

extension SecretChatManager {
    // MARK: Sending

    /// Stores `text` (with its `entities`, and as a reply to `replyTo` when given) as an outgoing message of the
    /// chat and seals it in the same transaction (with the layer notice or a re-key request that may come along),
    /// then sends the outbox. The entities travel as `decryptedMessage.entities`, the reply as
    /// `reply_to_random_id` (the replied message's random_id). Returns the message's local id.
    @discardableResult
    public func send(
        text: String, entities: [MessageTextEntity] = [], replyTo: MessageId? = nil, chatId: Int32, ttl: Int32? = nil
    ) async throws(SecretChatManagerError) -> MessageId {
        let secretEntities = SecretChatEntities.secretEntities(entities)
        return try await sendSealed(
            chatId: chatId, storedText: text, entities: entities, replyTo: replyTo, ttl: { ttl ?? $0.messageTTL ?? 0 }
        ) { randomId, ttl, replyRandomId in
            .decryptedMessage(
                .init(
                    randomId: randomId, ttl: ttl, message: text, entities: secretEntities,
                    replyToRandomId: replyRandomId))
        }
    }

    /// One outgoing message of the chat: sealed (with the layer notice or a re-key request that may come along),
    /// queued with `file` when it carries one, and stored as an outgoing message with `storedText`, its entities,
    /// reply and media — with its self-destruct timer when its TTL is above 0 — all in one transaction; then the
    /// outbox is sent.
    func sendSealed(
        chatId: Int32, storedText: String, entities: [MessageTextEntity] = [], replyTo: MessageId? = nil,
        media: [Media] = [], ttl: (SecretChatRecord) -> Int32, file: [UInt8]? = nil,
        _ message: (_ randomId: Int64, _ ttl: Int32, _ replyToRandomId: Int64?) -> SecretApi.DecryptedMessage
    ) async throws(SecretChatManagerError) -> MessageId {
        let now = clock()
        let accountPeerId = self.accountPeerId
        let policy = rekeyPolicy
        let id = try write { tx -> MessageId in
            guard var record = try SecretChatStorage.record(chatId, tx: tx) else {
                throw SecretChatManagerError.unknownChat(chatId)
            }
            guard var session = record.session else { throw SecretChatManagerError.notActive(chatId) }
            var replyRandomId: Int64?
            if let replyTo {
                guard replyTo.peerId == record.peerId, let replied = try tx.getMessage(replyTo)?.globallyUniqueId else {
                    throw SecretChatManagerError.unknownMessage(replyTo.id)
                }
                replyRandomId = replied
            }
            let randomId = Int64(bitPattern: SecureRandom.uint64())
            let ttl = ttl(record)
            let outgoing = session.send(message(randomId, ttl, replyRandomId), now: now, policy: policy)
            try Self.queue(outgoing, chatId: chatId, record: &record, tx: tx, file: file, messageRandomId: randomId)
            record.phase = .active(session)
            var attributes: [MessageAttribute] = []
            if !entities.isEmpty { attributes.append(TextEntitiesMessageAttribute(entities: entities)) }
            if let replyTo { attributes.append(ReplyMessageAttribute(messageId: replyTo)) }
            let ids = try tx.addMessages([
                StoreMessage(
                    id: .partial(record.peerId, Namespaces.Message.local), globallyUniqueId: randomId, timestamp: now,
                    authorId: accountPeerId, text: storedText, attributes: attributes, media: media)
            ])
            if ttl > 0 {
                var timers = record.timers ?? SecretChatTimers()
                timers.add(namespace: ids[0].namespace, id: ids[0].id, incoming: false, date: now, ttl: ttl)
                record.timers = timers
            }
            try storeRecord(record, tx: tx)
            return ids[0]
        }
        await flush(chatId: chatId)
        return id
    }

    /// Keeps each outgoing payload (for resend requests) and queues its sealed form; the message among them (not a
    /// service action) is named by `messageRandomId`.
    static func queue(
        _ outgoing: [SecretChatOutgoing], chatId: Int32, record: inout SecretChatRecord, tx: Transaction,
        file: [UInt8]? = nil, messageRandomId: Int64? = nil
    ) throws {
        for item in outgoing {
            try tx.setKeychainEntry(item.payload, forKey: SecretChatStorage.payload(chatId, raw: item.raw))
            record.outbox.append(
                SecretChatOutbound(
                    transportRandomId: Int64(bitPattern: SecureRandom.uint64()), bytes: item.sealed,
                    isService: item.isService,
                    file: item.isService ? nil : file, messageRandomId: item.isService ? nil : messageRandomId))
        }
    }

    /// Sends the chat's outbox in order, each removed once the server has it (or left for the next flush when it
    /// could not be sent); one flush per chat at a time. A flush asked for while one runs makes it go round once more
    /// and returns when that pass ends, so whoever queued a message and flushed knows it has been tried.
    public func flush(chatId: Int32) async {
        let mine = flushing.withLock { state -> Bool in
            if state[chatId] != nil {
                state[chatId]?.again = true
                return false
            }
            state[chatId] = FlushState()
            return true
        }
        guard mine else {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let running = flushing.withLock { state -> Bool in
                    guard state[chatId] != nil else { return false }
                    state[chatId]?.waiters.append(waiter)
                    return true
                }
                // The flush ended between the two locks, after a pass that began after `again` was set.
                if !running { waiter.resume() }
            }
            return
        }
        while true {
            while let next = try? read({ tx in
                try SecretChatStorage.record(chatId, tx: tx).flatMap { record in
                    record.outbox.first.map { (record, $0) }
                }
            }) {
                let (record, first) = next
                // The account shut down: what is left stays in the outbox for the next start.
                if flushingStopped { break }
                let index = transmitted.withLock { counts -> Int in
                    let value = counts[chatId, default: 0]
                    counts[chatId] = value + 1
                    return value
                }
                let dropped = dropTransmission.withLock { $0?(chatId, index) ?? false }
                var sentAt: Int32?
                if !dropped {
                    let peer = Api.InputEncryptedChat.inputEncryptedChat(
                        .init(chatId: chatId, accessHash: record.accessHash))
                    do {
                        let sent: Api.messages.SentEncryptedMessage
                        if let file = first.file {
                            sent = try await network.request(
                                Api.functions.messages.sendEncryptedFile(
                                    peer: peer, randomId: first.transportRandomId, data: first.bytes,
                                    file: try Api.InputEncryptedFile(tlBytes: file)))
                        } else if first.isService {
                            sent = try await network.request(
                                Api.functions.messages.sendEncryptedService(
                                    peer: peer, randomId: first.transportRandomId, data: first.bytes))
                        } else {
                            sent = try await network.request(
                                Api.functions.messages.sendEncrypted(
                                    peer: peer, randomId: first.transportRandomId, data: first.bytes))
                        }
                        switch sent {
                        case .sentEncryptedMessage(let value): sentAt = value.date
                        case .sentEncryptedFile(let value): sentAt = value.date
                        }
                    } catch {
                        break  // left in the outbox: the next flush (a restart, the next message) sends it
                    }
                }
                _ = try? write { tx in
                    guard var stored = try SecretChatStorage.record(chatId, tx: tx), stored.outbox.first == first else {
                        return
                    }
                    stored.outbox.removeFirst()
                    try storeRecord(stored, tx: tx)
                    // The message shows at the server's date, as the other side's copy does (Telegram-iOS
                    // ManagedSecretChatOutgoingOperations: `sentEncryptedMessage(date)`), not at this device's clock.
                    if let sentAt, let randomId = first.messageRandomId,
                        let id = try tx.messageId(peerId: stored.peerId, globallyUniqueId: randomId)
                    {
                        try tx.updateMessage(id) { message in
                            var updated = message.toStoreMessage()
                            updated.timestamp = sentAt
                            return updated
                        }
                    }
                }
            }
            // Waiters registered before this pass began are covered by it; a later one set `again`.
            let finished = flushing.withLock { state -> [CheckedContinuation<Void, Never>]? in
                if state[chatId]?.again == true {
                    state[chatId]?.again = false
                    return nil
                }
                return state.removeValue(forKey: chatId)?.waiters ?? []
            }
            if let finished {
                for waiter in finished { waiter.resume() }
                break
            }
        }
    }

    /// Sends every chat's outbox (on start: what a restart left).
    public func flushAll() async {
        for id in (try? read({ tx in try SecretChatStorage.chatIds(tx: tx) })) ?? [] { await flush(chatId: id) }
    }
}
