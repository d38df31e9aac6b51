// Incoming secret-chat updates: decrypting, storing messages and media, gaps and resends, acknowledging the qts.

import AccountNetworking
import CryptoUtils
import Foundation
import Network
import Postbox
import SecretApi
import SecretChats
import SyncCore
import Synchronization
import TLRuntime
import TelegramApi

extension SecretChatManager {
    // MARK: Applying updates (inside the batch's transaction)

    /// Applies a secret-chat update inside the update batch's transaction; returns the chat to flush afterwards.
    func apply(_ update: Api.Update, transaction tx: Transaction) throws -> Int32? {
        switch update {
        case .updateEncryption(let value): return try applyEncryption(value.chat, tx: tx)
        case .updateNewEncryptedMessage(let value):
            acknowledge(qts: value.qts)
            return try receive(value.message, tx: tx)
        case .updateEncryptedChatTyping(let value):
            noteTyping(chatId: value.chatId, active: true)
            return nil
        case .updateEncryptedMessagesRead(let value):
            // The other side read up to max_date: timers of our messages sent until then start.
            guard var record = try SecretChatStorage.record(value.chatId, tx: tx), var timers = record.timers else {
                return nil
            }
            timers.readOutgoing(maxDate: value.maxDate, now: timerStart())
            record.timers = timers
            try storeRecord(record, tx: tx)
            Task.detached(executorPreference: taskExecutor) { [weak self] in self?.scheduleTimers() }
            return nil
        default: return nil
        }
    }

    /// Opens one encrypted message with the chat's session and applies what it led to: messages stored (with their
    /// entities, reply and media), deletions, screenshot notices, protocol answers and resends queued, the session
    /// written back — all in this transaction.
    func receive(_ message: Api.EncryptedMessage, tx: Transaction) throws -> Int32? {
        let (chatId, bytes, date): (Int32, [UInt8], Int32)
        switch message {
        case .encryptedMessage(let value): (chatId, bytes, date) = (value.chatId, value.bytes, value.date)
        case .encryptedMessageService(let value): (chatId, bytes, date) = (value.chatId, value.bytes, value.date)
        }
        guard var record = try SecretChatStorage.record(chatId, tx: tx) else {
            keepForUnknownChat(chatId, .message(message))
            return nil
        }
        guard var session = record.session else {
            // Before the key is known here — our request's acceptance not yet applied (`applyEncryption`), or our
            // own `acceptEncryption` not yet answered (`accept`) while the other side already wrote: kept for then,
            // since the other side will not send it again (Telegram-iOS queues incoming operations until the chat
            // is active).
            let waiting: Bool
            switch record.phase {
            case .requested, .incoming: waiting = true
            case .active, .ended: waiting = false
            }
            if waiting, (record.early?.count ?? 0) < SecretChatRecord.earlyLimit {
                record.early = (record.early ?? []) + [message.serialized()]
                try storeRecord(record, tx: tx)
            }
            return nil
        }
        let now = max(date, clock())
        let heldBefore = Set(session.held.keys)
        let events = session.receive(bytes, now: now, policy: rekeyPolicy)
        // The encrypted file this transmission carries belongs to its own message: the first one shown when it was in
        // order, or the one it left held behind a gap — kept now, so the message finds it whenever it is released.
        if case .encryptedMessage(let value) = message, case .encryptedFile(let file) = value.file {
            var carrier: SecretApi.DecryptedMessage?
            if case .message(let first, _)? = events.first { carrier = first }
            if let raw = Set(session.held.keys).subtracting(heldBefore).first {
                carrier = session.heldMessage(raw: raw)
            }
            if case .decryptedMessage(let carried)? = carrier,
                let details = SecretChatMediaMapping.fileDetails(carried.media),
                try tx.keychainEntryForKey(SecretChatStorage.file(chatId, randomId: carried.randomId)) == nil
            {
                let received = SecretChatReceivedFile(
                    id: file.id, accessHash: file.accessHash, dc: file.dcId, size: details.size,
                    serverFingerprint: file.keyFingerprint, key: details.key, name: details.name,
                    mimeType: details.mimeType)
                try tx.setKeychainEntry(
                    Array(try JSONEncoder().encode(received)),
                    forKey: SecretChatStorage.file(chatId, randomId: carried.randomId))
            }
        }
        if session.gapDeadline != nil {
            Task.detached(executorPreference: taskExecutor) { [weak self] in self?.scheduleGapCheck() }
        }
        return try store(events, chatId: chatId, date: date, record: &record, session: session, tx: tx)
    }

    /// Applies what the session's events ask for, in this transaction: messages stored (with their entities, reply
    /// and media), deletions, screenshot notices, protocol answers and resends queued, the session written back.
    /// Returns the chat when its outbox has something to send.
    func store(
        _ events: [SecretChatEvent], chatId: Int32, date: Int32, record: inout SecretChatRecord,
        session: SecretChatSession, tx: Transaction
    ) throws -> Int32? {
        var stored: [(message: StoreMessage, ttl: Int32)] = []
        var queued: [SecretChatOutgoing] = []
        for event in events {
            switch event {
            case .message(.decryptedMessage(let value), _):
                var attributes: [MessageAttribute] = []
                let entities = SecretChatEntities.messageEntities(value.entities, text: value.message)
                if !entities.isEmpty { attributes.append(TextEntitiesMessageAttribute(entities: entities)) }
                if let reply = value.replyToRandomId,
                    let replied = try tx.messageId(peerId: record.peerId, globallyUniqueId: reply)
                {
                    attributes.append(ReplyMessageAttribute(messageId: replied))
                }
                stored.append(
                    (
                        StoreMessage(
                            id: .partial(record.peerId, Namespaces.Message.secretIncoming),
                            globallyUniqueId: value.randomId,
                            timestamp: date, flags: [.incoming], authorId: .user(record.peerUserId),
                            text: Self.text(of: value), attributes: attributes,
                            media: SecretChatMediaMapping.storedMedia(
                                value.media, chatId: chatId, randomId: value.randomId)),
                        value.ttl
                    ))
            case .message(let decrypted, _):
                guard let action = Self.action(of: decrypted) else { break }
                switch action {
                case .decryptedMessageActionSetMessageTTL(let value):
                    record.messageTTL = value.ttlSeconds > 0 ? value.ttlSeconds : nil
                case .decryptedMessageActionScreenshotMessages:
                    stored.append(
                        (
                            StoreMessage(
                                id: .partial(record.peerId, Namespaces.Message.secretIncoming),
                                globallyUniqueId: Self.randomId(of: decrypted), timestamp: date, flags: [.incoming],
                                authorId: .user(record.peerUserId), text: "",
                                media: [TelegramMediaAction(action: .historyScreenshot)]),
                            0
                        ))
                case .decryptedMessageActionDeleteMessages(let value):
                    let doomed = Set(value.randomIds)
                    stored.removeAll { doomed.contains($0.message.globallyUniqueId ?? 0) }
                    try Self.deleteMessages(randomIds: value.randomIds, record: &record, tx: tx)
                case .decryptedMessageActionFlushHistory:
                    stored.removeAll()
                    try Self.deleteHistory(record: &record, tx: tx)
                case .decryptedMessageActionTyping(let value):
                    if case .sendMessageCancelAction = value.action {
                        noteTyping(chatId: chatId, active: false)
                    } else {
                        noteTyping(chatId: chatId, active: true)
                    }
                default:
                    break  // read receipts travel as readEncryptedHistory
                }
            case .send(let outgoing):
                queued.append(outgoing)
            case .resend(let range):
                resent.withLock { $0 += range.count }
                for raw in range {
                    guard let payload = try tx.keychainEntryForKey(SecretChatStorage.payload(chatId, raw: raw)) else {
                        continue
                    }
                    record.outbox.append(
                        SecretChatOutbound(
                            transportRandomId: Int64(bitPattern: SecureRandom.uint64()), bytes: session.reseal(payload),
                            isService: true))
                }
            case .dropped(let drop):
                drops.withLock { list in
                    list.append(drop)
                    if list.count > 100 { list.removeFirst(list.count - 100) }
                }
            case .keyChanged:
                break
            case .terminated(let reason):
                record.phase = .ended(reason)
            }
        }
        if !stored.isEmpty { noteTyping(chatId: chatId, active: false) }  // a message ends the other side's typing
        try Self.queue(queued, chatId: chatId, record: &record, tx: tx)
        if case .active = record.phase { record.phase = .active(session) }
        try storeRecord(record, tx: tx)
        if !stored.isEmpty {
            let fresh = try stored.filter { item in
                try tx.messageId(peerId: record.peerId, globallyUniqueId: item.message.globallyUniqueId ?? 0) == nil
            }
            let ids = try tx.addMessages(fresh.map(\.message))
            for (id, item) in zip(ids, fresh) where item.ttl > 0 {
                var timers = record.timers ?? SecretChatTimers()
                timers.add(
                    namespace: id.namespace, id: id.id, incoming: true, date: item.message.timestamp, ttl: item.ttl)
                record.timers = timers
            }
            try storeRecord(record, tx: tx)
        }
        return record.outbox.isEmpty ? nil : chatId
    }

    /// What a received message shows as text: its text, or a file's name when it carries a file without a caption.
    static func text(of message: SecretApi.DecryptedMessage.Cons_decryptedMessage) -> String {
        guard message.message.isEmpty, case .decryptedMessageMediaDocument(let document)? = message.media else {
            return message.message
        }
        return document.attributes.compactMap { attribute -> String? in
            if case .documentAttributeFilename(let value) = attribute { return value.fileName }
            return nil
        }.first ?? ""
    }

    /// The action of a user-level service message, whichever layer's constructor carries it.
    static func action(of message: SecretApi.DecryptedMessage) -> SecretApi.DecryptedMessageAction? {
        switch message {
        case .decryptedMessageService(let service): return service.action
        case .decryptedMessageService8(let service): return service.action
        default: return nil
        }
    }

    static func randomId(of message: SecretApi.DecryptedMessage) -> Int64 {
        switch message {
        case .decryptedMessageService(let value): return value.randomId
        case .decryptedMessageService8(let value): return value.randomId
        case .decryptedMessage(let value): return value.randomId
        case .decryptedMessage8(let value): return value.randomId
        case .decryptedMessage23(let value): return value.randomId
        case .decryptedMessage46(let value): return value.randomId
        }
    }

    // MARK: Acknowledging the queue

    /// `messages.receivedQueue(max_qts)` once the transaction that stored the messages up to `qts` has committed, so
    /// the server can forget them (it keeps them, bounded, until then). One call in flight; it repeats while more
    /// arrived meanwhile.
    func acknowledge(qts: Int32) {
        let start = acknowledged.withLock { state -> Bool in
            state.pending = max(state.pending, qts)
            guard !state.running else { return false }
            state.running = true
            return true
        }
        guard start else { return }
        Task.detached(executorPreference: taskExecutor) { [weak self] in
            guard let self else { return }
            while true {
                _ = try? self.read { _ in }  // waits for the applying transaction to commit
                let qts = self.acknowledged.withLock { $0.pending }
                _ = try? await self.network.request(Api.functions.messages.receivedQueue(maxQts: qts))
                let done = self.acknowledged.withLock { state -> Bool in
                    state.sent = max(state.sent, qts)
                    if state.pending > state.sent { return false }
                    state.running = false
                    return true
                }
                if done { break }
            }
        }
    }

    /// The highest qts acknowledged to the server (tests).
    public var acknowledgedQts: Int32 { acknowledged.withLock { $0.sent } }
}
