// Secret-chat self-destruct: the chat's message TTL, read receipts that start timers, and the expiry loop.

import AccountNetworking
import Foundation
import Network
import Postbox
import SecretApi
import SecretChats
import Synchronization
import TelegramApi

extension SecretChatManager {
    // MARK: Self-destruct

    /// Sets the chat's TTL for new messages on both sides (`decryptedMessageActionSetMessageTTL`; 0 turns it off).
    /// Messages sent after it carry it unless `send` names another.
    public func setMessageTTL(_ seconds: Int32, chatId: Int32) async throws(SecretChatManagerError) {
        try await sendAction(chatId: chatId) { _, record in
            record.messageTTL = seconds > 0 ? seconds : nil
            return .decryptedMessageActionSetMessageTTL(.init(ttlSeconds: max(0, seconds)))
        }
    }

    /// This side has read the chat (it was shown): `messages.readEncryptedHistory` tells the other side, whose
    /// timers start, and the timers of the messages received here start now.
    public func markRead(chatId: Int32) async throws(SecretChatManagerError) {
        guard let record = try record(chatId: chatId) else { throw .unknownChat(chatId) }
        let now = clock()
        do {
            _ = try await network.request(
                Api.functions.messages.readEncryptedHistory(
                    peer: .inputEncryptedChat(.init(chatId: chatId, accessHash: record.accessHash)), maxDate: now))
        } catch { throw .network("\(error)") }
        try write { tx in
            guard var stored = try SecretChatStorage.record(chatId, tx: tx), var timers = stored.timers else { return }
            timers.readIncoming(now: timerStart())
            stored.timers = timers
            try storeRecord(stored, tx: tx)
        }
        scheduleTimers()
    }

    /// When a timer starting now starts, in whole seconds rounded up (the clock is whole seconds, rounded down), so
    /// that a message never goes before its time.
    func timerStart() -> Int32 { clock() + 1 }

    /// Sleeps until the earliest self-destruct deadline of any chat, deletes what is due (the messages and their
    /// timers in one transaction) and sleeps again; called on start, on reads and after each expiry.
    public func scheduleTimers() {
        guard
            let deadline =
                (try? read({ tx in
                    try SecretChatStorage.chatIds(tx: tx).compactMap {
                        try SecretChatStorage.record($0, tx: tx)?.timers?.nextDeadline
                    }.min()
                })) ?? nil
        else { return }
        let sleep = self.sleep
        let task = Task.detached(executorPreference: taskExecutor) { [weak self] in
            // On the manager's own clock, which dated the deadline (a device clock set hours off must not make the
            // wait hours long).
            guard let wait = self.map({ Double(deadline - $0.clock()) }) else { return }
            if wait > 0 { try? await sleep(wait) }
            guard !Task.isCancelled, let self else { return }
            self.expire()
            self.scheduleTimers()
        }
        timerTask.withLock { previous in
            previous?.cancel()
            previous = task
        }
    }

    /// Deletes every message whose time has come, in every chat.
    func expire() {
        let now = clock()
        _ = try? write { tx in
            for id in try SecretChatStorage.chatIds(tx: tx) {
                guard var record = try SecretChatStorage.record(id, tx: tx), var timers = record.timers else {
                    continue
                }
                let due = timers.removeDue(now: now)
                guard !due.isEmpty else { continue }
                try tx.deleteMessages(due.map { MessageId(peerId: record.peerId, namespace: $0.namespace, id: $0.id) })
                record.timers = timers
                try storeRecord(record, tx: tx)
            }
        }
    }

    /// Stops the timers and the gap check (the account shuts down; they resume from Postbox on the next start).
    public func stop() {
        timerTask.withLock { task in
            task?.cancel()
            task = nil
        }
        gapTask.withLock { task in
            task?.cancel()
            task = nil
        }
    }
}
