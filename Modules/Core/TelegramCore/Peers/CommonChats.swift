public import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

extension Account {
    /// The groups and channels this account shares with user `peerId` (`messages.getCommonChats`; Telegram-iOS
    /// `groupsInCommon`), at most `limit` (the server's page, up to 100), stored as they come.
    public func commonChats(with peerId: PeerId, limit: Int = 100) async throws(MessageActionError) -> [PeerId] {
        let user = try storedInputUser(peerId)
        let answer = try await MessageCalls.call(
            Api.functions.messages.getCommonChats(userId: user, maxId: 0, limit: Int32(clamping: limit)),
            network: network)
        let chats: [Api.Chat]
        switch answer {
        case .chats(let body): chats = body.chats
        case .chatsSlice(let body): chats = body.chats
        }
        do {
            let applier = UpdateBatchApplier(accountPeerId: self.peerId)
            try postbox.transactionSync { tx in _ = try applier.storePeers(users: [], chats: chats, transaction: tx) }
        } catch {
            throw .storage("\(error)")
        }
        return chats.compactMap { chat in TelegramGroup(chat)?.id ?? TelegramChannel(chat)?.id }
    }

    /// How many groups and channels this account shares with user `peerId` (`users.getFullUser`'s
    /// `common_chats_count`); the user is stored as the answer shows them.
    public func commonChatsCount(with peerId: PeerId) async throws(MessageActionError) -> Int {
        let user = try storedInputUser(peerId)
        let answer = try await MessageCalls.call(Api.functions.users.getFullUser(id: user), network: network)
        guard case .userFull(let body) = answer, case .userFull(let full) = body.fullUser else { return 0 }
        do {
            let applier = UpdateBatchApplier(accountPeerId: self.peerId)
            try postbox.transactionSync { tx in
                _ = try applier.storePeers(users: body.users, chats: body.chats, transaction: tx)
            }
        } catch {
            throw .storage("\(error)")
        }
        return Int(full.commonChatsCount)
    }

    /// The `InputUser` of a stored user with an access hash (`.unknownPeer` otherwise).
    private func storedInputUser(_ peerId: PeerId) throws(MessageActionError) -> Api.InputUser {
        let found: Api.InputUser?
        do {
            found = try postbox.readTransactionSync { tx in
                guard let user = try tx.getPeer(peerId) as? TelegramUser, let hash = user.accessHash else { return nil }
                return Api.InputUser.inputUser(.init(userId: peerId.id.rawValue, accessHash: hash.value))
            }
        } catch {
            throw .storage("\(error)")
        }
        guard let found else { throw .unknownPeer(peerId) }
        return found
    }
}
