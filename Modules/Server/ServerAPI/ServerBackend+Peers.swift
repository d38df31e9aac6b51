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
            guard let record = try tx.user(id: user.userId),
                record.accessHash == user.accessHash || record.id == caller.userId
            else {
                throw APIError.peerIdInvalid
            }
            return .user(record.id)
        case .inputPeerUserFromMessage(let fromMessage):
            guard
                let user = try user(
                    fromMessage.userId, seenIn: fromMessage.msgId, of: fromMessage.peer, caller: caller, tx: tx)
            else {
                throw APIError.peerIdInvalid
            }
            return .user(user.id)
        case .inputPeerChat(let chat):
            guard let record = try tx.chat(id: chat.chatId) else { throw APIError.chatIdInvalid }
            guard record.members.contains(where: { $0.userId == caller.userId }) else {
                throw APIError.badRequest("CHAT_RESTRICTED")
            }
            return .chat(record.id)
        case .inputPeerChannel, .inputPeerChannelFromMessage:
            // Channels are no message box's peer: the methods that serve them take them before resolving.
            throw APIError.channelInvalid
        case .inputPeerEmpty:
            throw APIError.peerIdInvalid
        }
    }

    /// The account `userId` as a `…FromMessage` input names it: only when message `msgId` of the caller's
    /// conversation `peer` (which the caller must be able to reach) exists and shows that user — as its sender, the
    /// other side of a private chat, the sender of what it forwards, a mention, or a member its service action
    /// names. This is how a client may reach someone it saw in a group without their access hash; anything less would
    /// let anyone name any account by id (core.telegram.org constructor `inputPeerUserFromMessage`).
    func user(
        _ userId: Int64, seenIn msgId: Int32, of peer: Api.InputPeer, caller: Caller, tx: StoreTransaction
    ) throws -> UserRecord? {
        if case .inputPeerUserFromMessage = peer { return nil }
        guard let conversation = try? resolve(peer, caller: caller, tx: tx),
            let message = try tx.message(owner: caller.userId, id: Int64(msgId)), message.peer == conversation,
            Self.users(shownIn: message).contains(userId)
        else { return nil }
        return try tx.user(id: userId)
    }

    /// The accounts a message shows: its sender, a private chat's other side, a forward's sender, mentioned users and
    /// the members a service action names.
    static func users(shownIn message: MessageRecord) -> Set<Int64> {
        var users: Set<Int64> = [message.fromId]
        if message.peer.kind == .user { users.insert(message.peer.id) }
        if let bytes = message.forward, case .messageFwdHeader(let header)? = try? Api.MessageFwdHeader(tlBytes: bytes),
            case .peerUser(let from)? = header.fromId
        {
            users.insert(from.userId)
        }
        for case .messageEntityMentionName(let mention) in decodeEntities(message.entities) ?? [] {
            users.insert(mention.userId)
        }
        if let bytes = message.action, let action = try? Api.MessageAction(tlBytes: bytes) {
            switch action {
            case .messageActionChatCreate(let create): users.formUnion(create.users)
            case .messageActionChatAddUser(let add): users.formUnion(add.users)
            case .messageActionChatDeleteUser(let delete): users.insert(delete.userId)
            case .messageActionChatJoinedByLink(let link): users.insert(link.inviterId)
            default: break
            }
        }
        return users
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
                creator: chat.creator == viewer, left: !member, deactivated: chat.migratedTo != nil, id: chat.id,
                title: chat.title, photo: member ? Self.chatPhoto(chat.photo) : .chatPhotoEmpty,
                participantsCount: Int32(chat.members.count),
                date: chat.date, version: chat.version,
                migratedTo: chat.migratedTo.map {
                    .inputChannel(.init(channelId: $0, accessHash: channelAccessHash($0, viewer: viewer)))
                },
                defaultBannedRights: chat.defaultBannedRights == nil
                    ? nil : Self.apiBannedRights(chat.defaultBannedRights)
            ))
    }
}
