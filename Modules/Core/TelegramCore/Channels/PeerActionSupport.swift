import AccountNetworking
import Postbox
import SyncCore
import SyncCoreApi
import TLRuntime
import TelegramApi

/// What every group and channel action shares: one call with its error mapped, the `Updates` it returns applied the
/// way the account applies any call's updates, and the stored peers named as `InputChannel`, `InputUser`, `InputPeer`.
extension Account {
    /// `function` on the main DC: an `rpc_error` becomes `.server(name)`, anything else `.network`.
    func peerActionRequest<F: TLFunction>(
        _ function: F, timeout: Double = 30
    ) async throws(PeerActionError) -> F.Result where F.Result: Sendable {
        do {
            return try await network.request(function, timeout: timeout)
        } catch NetworkError.rpc(_, let message) {
            throw .server(message)
        } catch {
            throw .network
        }
    }

    /// Stores the users and chats `updates` carry at once (so the caller can name the new or changed chat as soon as
    /// this returns), then hands `updates` to the state manager, which applies their messages in their pts sequence
    /// (the channel's own for channel messages) like a push — Telegram-iOS does the same with each action's result
    /// (`account.stateManager.addUpdates(result)`).
    func applyActionUpdates(_ updates: Api.Updates) throws(PeerActionError) {
        let (users, chats) = Self.peers(in: updates)
        do {
            try postbox.transactionSync { tx in
                _ = try UpdateBatchApplier(accountPeerId: peerId).storePeers(
                    users: users, chats: chats, transaction: tx)
            }
        } catch {
            throw .storage("storing the chat the server returned: \(error)")
        }
        stateManager.addUpdates(updates)
    }

    /// The users and chats an `Updates` names.
    static func peers(in updates: Api.Updates) -> ([Api.User], [Api.Chat]) {
        switch updates {
        case .updates(let value): return (value.users, value.chats)
        case .updatesCombined(let value): return (value.users, value.chats)
        default: return ([], [])
        }
    }

    /// The chats an `Updates` carries, as stored peer ids.
    static func chatIds(in updates: Api.Updates) -> [PeerId] {
        peers(in: updates).1.compactMap { chat -> PeerId? in
            if let group = TelegramGroup(chat) { return group.id }
            return TelegramChannel(chat)?.id
        }
    }

    /// The stored peer `peerId`, or `.unknownPeer`.
    func storedPeer(_ peerId: PeerId) throws(PeerActionError) -> Peer {
        let peer: Peer?
        do {
            peer = try postbox.readTransactionSync { tx in try tx.getPeer(peerId) }
        } catch {
            throw .storage("reading the account: \(error)")
        }
        guard let peer else { throw .unknownPeer("the chat \(peerId) is not stored in this account") }
        return peer
    }

    /// The stored channel or supergroup `peerId` with its `InputChannel`.
    func storedChannel(_ peerId: PeerId) throws(PeerActionError) -> (TelegramChannel, Api.InputChannel) {
        let peer = try storedPeer(peerId)
        guard let channel = peer as? TelegramChannel else {
            throw .unsupported("\(peerId) is not a channel or supergroup")
        }
        guard let input = channel.apiInputChannel else {
            throw .unknownPeer("the channel \(channel.title) has no access hash stored")
        }
        return (channel, input)
    }

    /// The stored user `peerId` as an `InputUser` (`inputUserSelf` for the account).
    func inputUser(_ peerId: PeerId) throws(PeerActionError) -> Api.InputUser {
        if peerId == self.peerId { return .inputUserSelf }
        let peer = try storedPeer(peerId)
        guard let user = peer as? TelegramUser else { throw .unsupported("\(peerId) is not a user") }
        guard let hash = user.accessHash else { throw .unknownPeer("the user \(peerId) has no access hash stored") }
        return .inputUser(.init(userId: peerId.id.rawValue, accessHash: hash.value))
    }

    /// The stored user `peerId` as an `InputPeer`.
    func inputUserPeer(_ peerId: PeerId) throws(PeerActionError) -> Api.InputPeer {
        switch try inputUser(peerId) {
        case .inputUser(let user): return .inputPeerUser(.init(userId: user.userId, accessHash: user.accessHash))
        default: return .inputPeerSelf
        }
    }
}
