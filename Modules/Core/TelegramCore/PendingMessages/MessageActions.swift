import Foundation
public import Network
public import Postbox
public import SyncCore
import SyncCoreApi
import TelegramApi
import TLRuntime

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
/// once), then the server call; the pts its answer moves goes into the account's update sequence as the update it
/// stands for, so the state manager neither sees a gap nor applies the change twice.
extension Account {
    /// Marks the chat read up to `maxId` (Telegram-iOS `applyMaxReadIndexInteractively`, `messages.readHistory`): the
    /// unread count drops at once and the other side gets `updateReadHistoryOutbox`.
    public func markRead(peerId: PeerId, upTo maxId: Int32) async throws(MessageActionError) {
        let peer = try inputPeer(peerId)
        try write { tx in try tx.applyIncomingReadMaxId(MessageId(peerId: peerId, namespace: Namespaces.Message.cloud, id: maxId)) }
        let affected = try await call(Api.functions.messages.readHistory(peer: peer, maxId: maxId))
        guard case .affectedMessages(let moved) = affected, let apiPeer = peerId.apiPeer else { return }
        stateManager.addUpdates(
            .updateShort(.init(
                update: .updateReadHistoryInbox(
                    .init(peer: apiPeer, maxId: maxId, stillUnreadCount: 0, pts: moved.pts, ptsCount: moved.ptsCount)),
                date: Int32(Date().timeIntervalSince1970))))
    }

    /// Replaces a sent message's text and entities (`messages.editMessage`); the answer's `updateEditMessage` is
    /// applied through the state manager, so every view shows the edit with its `EditedMessageAttribute`.
    public func editMessage(_ id: MessageId, text: String, entities: [MessageTextEntity] = []) async throws(MessageActionError) {
        guard id.namespace == Namespaces.Message.cloud else { throw .notSent(id) }
        let peer = try inputPeer(id.peerId)
        let updates = try await call(
            Api.functions.messages.editMessage(
                peer: peer, id: id.id, message: text, entities: entities.isEmpty ? nil : entities.compactMap { $0.apiEntity() }))
        stateManager.addUpdates(updates)
    }

    /// Deletes messages (`messages.deleteMessages`): from this account at once, and with `forEveryone` from the other
    /// side's too. Unsent local messages are only removed here.
    public func deleteMessages(_ ids: [MessageId], forEveryone: Bool) async throws(MessageActionError) {
        try write { tx in try tx.deleteMessages(ids) }
        let cloud = ids.filter { $0.namespace == Namespaces.Message.cloud }.map(\.id)
        guard !cloud.isEmpty else { return }
        let affected = try await call(Api.functions.messages.deleteMessages(revoke: forEveryone, id: cloud))
        guard case .affectedMessages(let moved) = affected else { return }
        stateManager.addUpdates(
            .updateShort(.init(
                update: .updateDeleteMessages(.init(messages: cloud, pts: moved.pts, ptsCount: moved.ptsCount)),
                date: Int32(Date().timeIntervalSince1970))))
    }

    // MARK: - Helpers

    private func inputPeer(_ peerId: PeerId) throws(MessageActionError) -> Api.InputPeer {
        let accountPeerId = self.peerId
        let found: Api.InputPeer?
        do {
            found = try postbox.readTransactionSync { tx in try apiInputPeer(peerId, accountPeerId: accountPeerId, transaction: tx) }
        } catch {
            throw .storage("\(error)")
        }
        guard let found else { throw .unknownPeer(peerId) }
        return found
    }

    private func write(_ body: (Transaction) throws -> Void) throws(MessageActionError) {
        do {
            try postbox.transactionSync(body)
        } catch {
            throw .storage("\(error)")
        }
    }

    private func call<F: TLFunction>(_ function: F) async throws(MessageActionError) -> F.Result where F.Result: Sendable {
        do {
            return try await network.request(function)
        } catch let NetworkError.rpc(_, text) {
            throw .refused(text)
        } catch let error as NetworkError {
            throw .network(error)
        } catch {
            throw .network(.connectionClosed)
        }
    }
}
