import ServerStore
import TLRuntime
import TelegramApi

/// Resolving what a client names: peers, with their access hashes and memberships checked.
extension ServerBackend {
    /// The conversation an `InputPeer` names, as the caller's message box files it.
    func resolve(_ input: Api.InputPeer, caller: Caller, tx: StoreTransaction) throws -> PeerRef {
        switch input {
        case .inputPeerSelf:
            return .user(caller.userId)
        case .inputPeerUser(let user):
            guard let record = try tx.user(id: user.userId), record.accessHash == user.accessHash || record.id == caller.userId else {
                throw APIError.peerIdInvalid
            }
            return .user(record.id)
        case .inputPeerUserFromMessage(let fromMessage):
            guard try tx.user(id: fromMessage.userId) != nil else { throw APIError.peerIdInvalid }
            return .user(fromMessage.userId)
        case .inputPeerChat(let chat):
            guard let record = try tx.chat(id: chat.chatId) else { throw APIError.chatIdInvalid }
            guard record.members.contains(where: { $0.userId == caller.userId }) else { throw APIError.badRequest("CHAT_RESTRICTED") }
            return .chat(record.id)
        case .inputPeerChannel, .inputPeerChannelFromMessage:
            throw APIError.channelsNotServed
        case .inputPeerEmpty:
            throw APIError.peerIdInvalid
        }
    }

    /// Every message box a message to `peer` from `sender` lands in, with the peer as that box files it.
    func recipients(of peer: PeerRef, sender: Int64, tx: StoreTransaction) throws -> [(owner: Int64, peer: PeerRef)] {
        switch peer.kind {
        case .user where peer.id == sender:
            return [(sender, peer)]
        case .user:
            return [(sender, peer), (peer.id, .user(sender))]
        case .chat:
            guard let chat = try tx.chat(id: peer.id) else { throw APIError.chatIdInvalid }
            let members = chat.members.map(\.userId)
            return [(sender, peer)] + members.filter { $0 != sender }.map { ($0, peer) }
        }
    }

    /// The auth keys signed in to `userId`: where pushes for them go.
    func authKeys(of userId: Int64, tx: StoreTransaction) throws -> [Int64] {
        try tx.authorizations(userId: userId).map(\.authKeyId)
    }

    func apiChat(_ chat: ChatRecord, viewer: Int64, tx: StoreTransaction) -> Api.Chat {
        let member = chat.members.contains { $0.userId == viewer }
        return .chat(
            .init(
                creator: chat.creator == viewer, left: !member, id: chat.id, title: chat.title, photo: .chatPhotoEmpty,
                participantsCount: Int32(chat.members.count), date: chat.date, version: chat.version))
    }
}
