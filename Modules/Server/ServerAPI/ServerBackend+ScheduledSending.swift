import Foundation
import Logging
import ServerStore
import TLRuntime
import TelegramApi

/// Sending scheduled messages: when their date comes (`sendDueScheduledMessages`, run when a backend starts — so a
/// message due while the server was down goes out then — and every second after) or when their sender asks
/// (`messages.sendScheduledMessages`). Each is sent as its sender sent it, a normal message to the chat, and the
/// sender's sessions get `updateDeleteScheduledMessages` with `sent_messages` (core.telegram.org "Scheduled
/// messages"; Telegram-iOS `submodules/TelegramCore/Sources/State/AccountStateManagementUtils.swift` moves the
/// scheduled copy to the sent id on that update).
extension ServerBackend {
    /// `messages.sendScheduledMessages`: the caller's scheduled messages `id` in the chat are sent now; the answer
    /// has, for each, `updateDeleteScheduledMessages` and the sent message.
    func sendScheduledMessages(
        _ call: Api.functions.messages.sendScheduledMessages, caller: Caller
    ) throws -> Api.Updates {
        guard call.id.count <= Self.scheduledPerChat else { throw APIError.limitInvalid }
        let records = try store.read { tx in
            let (kind, peerId) = try scheduledPeer(call.peer, caller: caller, tx: tx)
            return try call.id.compactMap { id in
                try tx.scheduledMessage(owner: caller.userId, id: Int64(id)).flatMap {
                    $0.peerKind == kind && $0.peerId == peerId ? $0 : nil
                }
            }
        }
        guard !records.isEmpty else { throw APIError.messageIdInvalid }
        var updates: [Api.Update] = []
        var users: [Api.User] = []
        var chats: [Api.Chat] = []
        for record in records {
            guard case .updates(let body)? = try sendScheduledNow(record, caller: caller) else { continue }
            updates += body.updates
            if users.isEmpty { users = body.users }
            if chats.isEmpty { chats = body.chats }
        }
        return .updates(.init(updates: updates, users: users, chats: chats, date: now, seq: 0))
    }

    /// Sends `record` now as its owner (`caller`): the answer is `updateDeleteScheduledMessages` then the sent
    /// message, and the owner's other sessions get the deletion pushed; `nil` when it was already sent or deleted, or
    /// (`dueBy`, the timer's date) edited to a later date meanwhile.
    /// One that can no longer be sent (its sender left the chat, or was blocked) is dropped all the same, its sender
    /// told so by an `updateDeleteScheduledMessages` without `sent_messages`, and the error thrown.
    func sendScheduledNow(_ listed: ScheduledMessageRecord, dueBy: Int32? = nil, caller: Caller) throws -> Api.Updates?
    {
        // Taken by deleting it, so the timer and `sendScheduledMessages` never both send it; what is sent is the row
        // as it is when taken, so an edit made after it was listed is neither lost nor sent early.
        let taken = try store.write { tx -> ScheduledMessageRecord? in
            guard let current = try tx.scheduledMessage(owner: listed.owner, id: listed.id),
                dueBy.map({ current.date <= $0 }) ?? true,
                try tx.deleteScheduled(owner: listed.owner, id: listed.id)
            else { return nil }
            return current
        }
        guard let record = taken else { return nil }
        var outgoing = Outgoing(
            text: record.text, entities: Self.decodeEntities(record.entities),
            media: record.media.flatMap { try? Api.MessageMedia(tlBytes: $0) }, mediaKind: record.mediaKind,
            replyTo: record.replyTo, silent: record.silent, randomId: record.randomId)
        let page = scheduledWebPage(&outgoing, caller: caller)
        let peer = Self.scheduledApiPeer(record.peerKind, record.peerId)
        let sent: Api.Updates
        do {
            let input = try Api.InputPeer(tlBytes: record.inputPeer)
            if record.peerKind == .channel {
                sent = try sendToChannel([outgoing], peer: input, caller: caller, charged: false)
                if let page, let post = Self.channelPost(in: sent) {
                    awaitWebPage(
                        page.id, link: page.link, messages: [.channel(channelId: post.channel, messageId: post.id)])
                }
            } else {
                let landed = try deliver([outgoing], to: input, caller: caller, charged: false)
                sent = try sentUpdates(landed, caller: caller)
                if let page, let mine = landed.first?.first(where: { $0.message.owner == caller.userId }) {
                    awaitWebPage(page.id, link: page.link, messages: [.box(globalId: mine.message.globalId)])
                }
            }
        } catch {
            try pushScheduledDeletion(peer, id: record.id, sentIds: nil, owner: record.owner, caller: caller)
            throw error
        }
        guard case .updates(let body) = sent else { throw APIError.internalError }
        let sentIds = body.updates.compactMap { update -> Int32? in
            switch update {
            case .updateNewMessage(let new): return Self.messageId(new.message)
            case .updateNewChannelMessage(let new): return Self.messageId(new.message)
            default: return nil
            }
        }
        let deletion = try pushScheduledDeletion(
            peer, id: record.id, sentIds: sentIds, owner: record.owner, caller: caller)
        return .updates(
            .init(updates: [deletion] + body.updates, users: body.users, chats: body.chats, date: body.date, seq: 0))
    }

    /// Pushes `updateDeleteScheduledMessages` for scheduled message `id` to `owner`'s sessions but `caller`'s.
    @discardableResult
    func pushScheduledDeletion(
        _ peer: Api.Peer, id: Int64, sentIds: [Int32]?, owner: Int64, caller: Caller
    ) throws -> Api.Update {
        let deletion = Api.Update.updateDeleteScheduledMessages(
            .init(peer: peer, messages: [Int32(truncatingIfNeeded: id)], sentMessages: sentIds))
        let keys = try store.read { tx in try authKeys(of: owner, tx: tx) }
        send(
            [
                Push(
                    authKeyIds: keys,
                    updates: .updates(.init(updates: [deletion], users: [], chats: [], date: now, seq: 0)))
            ], caller: caller)
        return deletion
    }

    static func messageId(_ message: Api.Message) -> Int32? {
        switch message {
        case .message(let body): return body.id
        case .messageService(let body): return body.id
        case .messageEmpty(let body): return body.id
        }
    }

    /// Sends every scheduled message whose date has come on the backend's clock, each as its sender (every session
    /// of the sender gets the sent message and the deletion pushed); returns how many were sent.
    @discardableResult
    public func sendDueScheduledMessages() -> Int {
        var sent = 0
        while true {
            let date = now
            guard let due = try? store.read({ tx in try tx.dueScheduledMessages(at: date, limit: Self.dueBatch) }),
                !due.isEmpty
            else { break }
            var taken = 0
            for record in due {
                let dc: Int32? = try? store.read { tx in try tx.user(id: record.owner)?.dc }
                let sender = Caller(
                    authKeyId: 0, sessionId: 0, dc: dc ?? 0, userId: record.owner, withoutUpdates: false)
                do {
                    if try sendScheduledNow(record, dueBy: date, caller: sender) != nil {
                        sent += 1
                        taken += 1
                    }
                } catch {
                    taken += 1
                    logger.notice(
                        "a scheduled message could not be sent",
                        metadata: ["owner": "\(record.owner)", "id": "\(record.id)", "error": "\(error)"])
                }
            }
            if taken == 0 { break }
        }
        return sent
    }

    /// Starts sending scheduled messages when they are due, checking every `interval` seconds of real time (the
    /// dates are compared with the backend's clock) until the backend goes away.
    public func startSendingScheduledMessages(every interval: Double = 1) {
        scheduledTicker.start(every: interval) { [weak self] in self?.sendDueScheduledMessages() }
    }
}

/// The timer behind `startSendingScheduledMessages`, cancelled when its backend goes away.
final class ScheduledTicker: @unchecked Sendable {
    private let lock = NSLock()
    private var timer: (any DispatchSourceTimer)?
    private let queue = DispatchQueue(label: "tg-server.scheduled-messages")

    func start(every interval: Double, _ tick: @escaping @Sendable () -> Void) {
        lock.withLock {
            timer?.cancel()
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.schedule(deadline: .now() + interval, repeating: interval)
            source.setEventHandler(handler: tick)
            source.resume()
            timer = source
        }
    }

    deinit { timer?.cancel() }
}
