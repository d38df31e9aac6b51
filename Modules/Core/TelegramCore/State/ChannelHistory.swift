import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// What channel updates change in a channel's stored history besides adding, editing and deleting messages
/// (Telegram-iOS `AccountStateManagementUtils.swift`, `replayFinalState`): the read mark with the server's unread
/// count, view counts, and the reset after `updates.channelDifferenceTooLong`.
enum ChannelHistory {
    /// Sets a stored channel post's view count (`updateChannelMessageViews`); a post not stored is left alone, as is
    /// one whose count is already as high.
    static func setViews(_ views: Int32, of id: MessageId, transaction tx: Transaction) throws {
        guard let message = try tx.getMessage(id) else { return }
        let current = message.attributes.compactMap { $0 as? ViewCountMessageAttribute }.first?.count
        guard current.map({ $0 < views }) ?? true else { return }
        try tx.updateMessage(id) { message in
            var stored = message.toStoreMessage()
            stored.attributes.removeAll { $0 is ViewCountMessageAttribute }
            stored.attributes.append(ViewCountMessageAttribute(count: views))
            return stored
        }
    }

    /// `updateReadChannelInbox`: the channel is read up to `maxId` with `stillUnread` messages left, the server's count
    /// (Telegram-iOS resets the read state with it: a channel's history is mostly holes, so a local count would be
    /// wrong). A mark behind the stored one is ignored.
    static func readInbox(
        _ peerId: PeerId, maxId: Int32, stillUnread: Int32, transaction tx: Transaction
    ) throws -> Bool {
        let current = try tx.getCombinedPeerReadState(peerId)?.states[Namespaces.Message.cloud]
        guard (current?.maxIncomingReadId ?? 0) <= maxId else { return false }
        try tx.resetIncomingReadStates([
            peerId: [
                Namespaces.Message.cloud: PeerReadState(
                    maxIncomingReadId: maxId, maxOutgoingReadId: current?.maxOutgoingReadId ?? 0,
                    maxKnownId: max(current?.maxKnownId ?? 0, maxId), count: stillUnread)
            ]
        ])
        return true
    }

    /// `channelDifferenceTooLong` (core.telegram.org "Working with updates": the client should reset the channel):
    /// the channel's newest `messages` are stored (replacing stored copies), everything below them becomes a hole —
    /// filled from `messages.getHistory` when a view reaches it — and the dialog's read state replaces the stored one.
    /// Telegram-iOS adds the messages as an upper history block the same way.
    static func reset(
        _ peerId: PeerId, dialog: Api.Dialog, messages: [Api.Message], accountPeerId: PeerId,
        transaction tx: Transaction
    ) throws {
        let stored = messages.compactMap { StoreMessage(apiMessage: $0, accountPeerId: accountPeerId) }
        var fresh: [StoreMessage] = []
        for message in stored {
            guard case .id(let id) = message.id, id.peerId == peerId else { continue }
            if try tx.messageIndex(id) != nil {
                try tx.updateMessage(id) { _ in message }
            } else {
                fresh.append(message)
            }
        }
        if !fresh.isEmpty { _ = try tx.addMessages(fresh) }
        let ids = stored.compactMap { message -> Int32? in
            guard case .id(let id) = message.id, id.peerId == peerId else { return nil }
            return id.id
        }
        guard case .dialog(let value) = dialog else { return }
        let below = ids.min() ?? (value.topMessage + 1)
        if below > 1 { try CloudHoleSpaces.addHole(tx, peerId: peerId, range: 1...(below - 1)) }
        try tx.resetIncomingReadStates([
            peerId: [
                Namespaces.Message.cloud: PeerReadState(
                    maxIncomingReadId: value.readInboxMaxId, maxOutgoingReadId: value.readOutboxMaxId,
                    maxKnownId: value.topMessage, count: value.unreadCount)
            ]
        ])
    }
}
