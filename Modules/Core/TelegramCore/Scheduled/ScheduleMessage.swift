import Foundation
public import Postbox
public import SyncCore
import SyncCoreApi
import TelegramApi

/// Scheduled messages (core.telegram.org "Scheduled messages"; Telegram-iOS
/// `TelegramCore/Sources/PendingMessages/EnqueueMessage.swift` sends with `scheduleTime`, and
/// `TelegramCore/Sources/State/AccountStateManagementUtils.swift` applies `updateNewScheduledMessage` /
/// `updateDeleteScheduledMessages`): `messages.sendMessage` with `schedule_date`, `messages.getScheduledHistory`,
/// kept in `ScheduledMessages`.
extension Account {
    /// Asks the server to send `text` to `peerId`'s chat at `date` (Unix time), and stores the scheduled message
    /// the server answers. `nil` when the server sent it at once (a date not in the future). The server's errors
    /// come as `.server` (`SCHEDULE_DATE_TOO_LATE` past 365 days, `SCHEDULE_TOO_MUCH` past 100 in the chat).
    public func scheduleMessage(
        _ peerId: PeerId, text: String, entities: [MessageTextEntity] = [], at date: Int32
    ) async throws(PeerActionError) -> ScheduledMessage? {
        let peer = try storedInputPeer(peerId)
        let answer = try await peerActionRequest(
            Api.functions.messages.sendMessage(
                peer: peer, message: text, randomId: Int64.random(in: Int64.min...Int64.max),
                entities: entities.isEmpty ? nil : entities.compactMap { $0.apiEntity() }, scheduleDate: date))
        guard case .updates(let body) = answer else { return nil }
        let created = body.updates.compactMap { update -> ScheduledMessage? in
            if case .updateNewScheduledMessage(let new) = update { return ScheduledMessages.message(new.message) }
            return nil
        }
        try store(created, users: body.users, chats: body.chats, replacing: nil)
        return created.first
    }

    /// Asks the server for `peerId`'s scheduled messages (`messages.getScheduledHistory`), stores them in place of
    /// what was stored for the chat, and returns them, soonest first.
    @discardableResult
    public func refreshScheduledMessages(_ peerId: PeerId) async throws(PeerActionError) -> [ScheduledMessage] {
        let peer = try storedInputPeer(peerId)
        let answer = try await peerActionRequest(Api.functions.messages.getScheduledHistory(peer: peer, hash: 0))
        guard case .messages(let body) = answer else { return scheduledMessages(peerId) }
        try store(
            body.messages.compactMap(ScheduledMessages.message), users: body.users, chats: body.chats,
            replacing: peerId)
        return scheduledMessages(peerId)
    }

    /// `peerId`'s scheduled messages as stored, soonest first.
    public func scheduledMessages(_ peerId: PeerId) -> [ScheduledMessage] {
        (try? postbox.readTransactionSync { tx in try ScheduledMessages.messages(peerId, transaction: tx) }) ?? []
    }

    private func store(
        _ messages: [ScheduledMessage], users: [Api.User], chats: [Api.Chat], replacing peerId: PeerId?
    ) throws(PeerActionError) {
        let accountPeerId = self.peerId
        do {
            try postbox.transactionSync { tx in
                _ = try UpdateBatchApplier(accountPeerId: accountPeerId).storePeers(
                    users: users, chats: chats, transaction: tx)
                if let peerId {
                    try ScheduledMessages.replace(messages, in: peerId, transaction: tx)
                } else {
                    for message in messages { try ScheduledMessages.add(message, transaction: tx) }
                }
            }
        } catch {
            throw .storage("storing the scheduled messages: \(error)")
        }
    }
}
