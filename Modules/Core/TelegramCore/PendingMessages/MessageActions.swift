public import AccountNetworking
import Foundation
public import Network
public import Postbox
public import SyncCore
import SyncCoreApi
import TLRuntime
import TelegramApi

/// Why reading, editing or deleting did not happen.
public enum MessageActionError: Error, Equatable, Sendable {
    /// The chat's peer is not stored (or has no access hash): it cannot be named to the server.
    case unknownPeer(PeerId)
    /// Only messages the server knows (cloud ids) can be edited or deleted for everyone.
    case notSent(MessageId)
    /// The server refused, with its error text (`MESSAGE_EDIT_TIME_EXPIRED`, `MESSAGE_NOT_MODIFIED`, …).
    case refused(String)
    /// The connection could not be made within the network layer's retries.
    case network(NetworkError)
    case storage(String)
}

/// Reading, editing and deleting, as Telegram-iOS does them: the local change first (what the user did shows at
/// once), then the server call. A read or a delete is stored with its local change in one transaction and sent by the
/// account's `MessageActionQueue` (so a restart, or a lost connection, does not lose it); the pts its answer moves goes
/// into the account's update sequence as the update it stands for, so the state manager neither sees a gap nor
/// applies the change twice.
extension Account {
    /// Marks the chat read up to `maxId` (Telegram-iOS `applyMaxReadIndexInteractively`, `messages.readHistory`): the
    /// unread count drops at once and the other side gets `updateReadHistoryOutbox`. Returns once the server has it;
    /// `.network` means it is stored and will be sent again (after a restart, too).
    public func markRead(peerId: PeerId, upTo maxId: Int32) async throws(MessageActionError) {
        _ = try MessageCalls.inputPeer(peerId, accountPeerId: self.peerId, postbox: postbox)
        let id = try write { tx in
            try tx.applyIncomingReadMaxId(MessageId(peerId: peerId, namespace: Namespaces.Message.cloud, id: maxId))
            return try PendingMessageActionsEntry.append(.readHistory(peerId: peerId, maxId: maxId), transaction: tx)
        }
        try await confirmed(id)
    }

    /// Marks a voice note or round video listened to (Telegram-iOS `markMessageContentAsConsumedInteractively`,
    /// `messages.readMessageContents`): its `ConsumableContentMessageAttribute` is consumed at once and the sender gets
    /// `updateReadMessagesContents`. Only an incoming, unplayed cloud message is sent; anything else returns at once.
    /// Returns once the server has it; `.network` means it is stored and will be sent again.
    public func markListened(_ messageId: MessageId) async throws(MessageActionError) {
        guard messageId.namespace == Namespaces.Message.cloud else { throw .notSent(messageId) }
        let id = try write { tx -> Int64? in
            guard let message = try tx.getMessage(messageId), message.flags.contains(.incoming),
                try ConsumedContents.markConsumed(messageId, transaction: tx)
            else { return nil }
            return try PendingMessageActionsEntry.append(.readMessageContents(ids: [messageId.id]), transaction: tx)
        }
        if let id { try await confirmed(id) }
    }

    /// Replaces a sent message's text and entities (`messages.editMessage`); the answer's `updateEditMessage` is
    /// applied through the state manager, so every view shows the edit with its `EditedMessageAttribute`. The server's
    /// `MESSAGE_NOT_MODIFIED` (the message already says this) is success.
    public func editMessage(
        _ id: MessageId, text: String, entities: [MessageTextEntity] = []
    ) async throws(MessageActionError) {
        guard id.namespace == Namespaces.Message.cloud else { throw .notSent(id) }
        let peer = try MessageCalls.inputPeer(id.peerId, accountPeerId: self.peerId, postbox: postbox)
        do {
            let updates = try await MessageCalls.call(
                Api.functions.messages.editMessage(
                    peer: peer, id: id.id, message: text,
                    entities: entities.isEmpty ? nil : entities.compactMap { $0.apiEntity() }),
                network: network)
            stateManager.addUpdates(updates)
        } catch .refused("MESSAGE_NOT_MODIFIED") {
            // The message already says this — an edit to the same text, or this very edit sent again after its answer
            // was lost with a connection (its update then comes with the difference that follows the reconnect).
            // Telegram-iOS `RequestEditMessage.swift` takes this answer as done, with nothing to apply.
        }
    }

    /// Deletes messages (`messages.deleteMessages`): from this account at once, and with `forEveryone` from the other
    /// side's too. Unsent local messages are only removed here. Returns once the server has it; `.network` means it
    /// is stored and will be sent again.
    /// In a channel or supergroup the delete is `channels.deleteMessages`, for everyone whatever `forEveryone` says
    /// (a channel's messages are one copy); its answer moves that channel's pts.
    public func deleteMessages(_ ids: [MessageId], forEveryone: Bool) async throws(MessageActionError) {
        let cloud = ids.filter { $0.namespace == Namespaces.Message.cloud }
        let channels = Dictionary(grouping: cloud.filter { $0.peerId.namespace == Namespaces.Peer.cloudChannel }) {
            $0.peerId
        }
        var actions = Self.chunked(cloud.filter { $0.peerId.namespace != Namespaces.Peer.cloudChannel }.map(\.id)).map {
            PendingMessageAction.deleteMessages(ids: $0, forEveryone: forEveryone)
        }
        for (channel, messages) in channels.sorted(by: { $0.key.toInt64() < $1.key.toInt64() }) {
            actions += Self.chunked(messages.map(\.id)).map {
                .deleteChannelMessages(channelId: channel.id.rawValue, ids: $0)
            }
        }
        let stored = try write { tx in
            try tx.deleteMessages(ids)
            return try actions.map { try PendingMessageActionsEntry.append($0, transaction: tx) }
        }
        for id in stored { try await confirmed(id) }
    }

    /// `ids` in stored actions of at most `PendingMessageAction.maxIds` each.
    private static func chunked(_ ids: [Int32]) -> [[Int32]] {
        stride(from: 0, to: ids.count, by: PendingMessageAction.maxIds).map {
            Array(ids[$0..<min($0 + PendingMessageAction.maxIds, ids.count)])
        }
    }

    // MARK: - Helpers

    /// Waits for stored action `id` to be confirmed (or refused) by the server, when the account is running.
    private func confirmed(_ id: Int64) async throws(MessageActionError) {
        actions.expect(id)
        if case .failure(let error) = await actions.outcome(id) { throw error }
    }

    private func write<T>(_ body: (Transaction) throws -> T) throws(MessageActionError) -> T {
        do {
            return try postbox.transactionSync(body)
        } catch {
            throw .storage("\(error)")
        }
    }
}
