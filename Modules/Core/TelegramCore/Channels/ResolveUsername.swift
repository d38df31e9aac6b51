public import Postbox
import SyncCore
import TelegramApi

extension Account {
    /// The user, group or channel that has the public username `name` (`contacts.resolveUsername`; Telegram-iOS
    /// `TelegramCore/Sources/TelegramEngine/Peers/ResolvePeerByName.swift`), stored with the users and chats the
    /// server returns so it can be named in calls at once. Nobody has it: `.notFound`.
    public func resolvePeer(username name: String) async throws(PeerActionError) -> PeerId {
        let answer: Api.contacts.ResolvedPeer
        do {
            answer = try await peerActionRequest(Api.functions.contacts.resolveUsername(username: name), timeout: 20)
        } catch .server(let error) where error == "USERNAME_NOT_OCCUPIED" || error == "USERNAME_INVALID" {
            throw .notFound("nobody has the username @\(name) (\(error))")
        }
        guard case .resolvedPeer(let resolved) = answer else { throw .notFound("nobody has the username @\(name)") }
        do {
            try postbox.transactionSync { tx in
                _ = try UpdateBatchApplier(accountPeerId: peerId).storePeers(
                    users: resolved.users, chats: resolved.chats, transaction: tx)
            }
        } catch {
            throw .storage("storing @\(name): \(error)")
        }
        switch resolved.peer {
        case .peerUser(let user): return .user(user.userId)
        case .peerChat(let chat): return .group(chat.chatId)
        case .peerChannel(let channel): return .channel(channel.channelId)
        }
    }
}
