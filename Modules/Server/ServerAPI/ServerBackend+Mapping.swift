import ServerStore
import TLRuntime
import TelegramApi

/// How stored records look on the wire (core.telegram.org constructors of layer 229).
extension ServerBackend {
    /// `user` as `viewer` sees it: the status as the user's privacy lets the viewer see it
    /// (`ServerBackend+Presence`); someone the user blocked sees them never online and without a photo
    /// (`ServerBackend+Blocks`).
    func apiUser(_ user: UserRecord, viewer: Int64, tx: StoreTransaction) throws -> Api.User {
        let blockedByUser = try user.id != viewer && tx.isBlocked(owner: user.id, userId: viewer)
        let contact = try user.id != viewer && tx.isContact(owner: viewer, userId: user.id)
        let mutual = try contact && tx.isContact(owner: user.id, userId: viewer)
        return .user(
            .init(
                isSelf: user.id == viewer, contact: contact, mutualContact: mutual, id: user.id,
                accessHash: user.accessHash, firstName: user.firstName,
                lastName: user.lastName.isEmpty ? nil : user.lastName, username: user.username,
                phone: user.id == viewer ? user.phone : nil, photo: blockedByUser ? nil : profilePhoto(user),
                status: blockedByUser ? .userStatusEmpty : try userStatus(of: user.id, viewer: viewer, tx: tx)))
    }

    func apiPeer(_ peer: PeerRef) -> Api.Peer {
        switch peer.kind {
        case .user: return .peerUser(.init(userId: peer.id))
        case .chat: return .peerChat(.init(chatId: peer.id))
        }
    }

    /// A box's message as its owner sees it, with `reactions` (`message.reactions`) when it has any; with `tx`, a
    /// poll shows its results as they now are (`viewedMedia`).
    func apiMessage(
        _ message: MessageRecord, reactions: Api.MessageReactions? = nil, tx: StoreTransaction? = nil
    ) -> Api.Message {
        let replyTo = message.replyTo.map {
            Api.MessageReplyHeader.messageReplyHeader(.init(replyToMsgId: Int32(truncatingIfNeeded: $0)))
        }
        if let action = message.action, let parsed = try? Api.MessageAction(tlBytes: action) {
            return .messageService(
                .init(
                    out: message.outgoing, silent: message.silent, id: Int32(truncatingIfNeeded: message.id),
                    fromId: .peerUser(.init(userId: message.fromId)),
                    peerId: apiPeer(message.peer), replyTo: replyTo, date: message.date, action: parsed))
        }
        return .message(
            .init(
                out: message.outgoing, mediaUnread: message.mediaUnread, silent: message.silent,
                pinned: message.pinned, id: Int32(truncatingIfNeeded: message.id),
                fromId: .peerUser(.init(userId: message.fromId)), peerId: apiPeer(message.peer),
                fwdFrom: message.forward.flatMap { try? Api.MessageFwdHeader(tlBytes: $0) }, replyTo: replyTo,
                date: message.date, message: message.text,
                media: viewedMedia(message.media, viewer: message.owner, tx: tx),
                entities: Self.decodeEntities(message.entities), editDate: message.editDate,
                groupedId: message.groupedId, reactions: reactions))
    }

    static let defaultNotifySettings = Api.PeerNotifySettings.peerNotifySettings(.init())

    static func encodeEntities(_ entities: [Api.MessageEntity]?) -> [UInt8]? {
        guard let entities, !entities.isEmpty else { return nil }
        var writer = TLWriter()
        writer.writeVectorHeader(count: entities.count)
        for entity in entities { entity.serialize(&writer) }
        return writer.takeBytes()
    }

    static func decodeEntities(_ bytes: [UInt8]?) -> [Api.MessageEntity]? {
        guard let bytes else { return nil }
        var reader = TLReader(bytes)
        return try? reader.readVector { (r: inout TLReader) throws(TLDecodingError) in try Api.MessageEntity.parse(&r) }
    }

    /// The users and chats a list of messages mentions, as the `users` and `chats` vectors of an answer.
    func participants(
        of messages: [MessageRecord], viewer: Int64, extraUsers: [Int64] = [], tx: StoreTransaction
    ) throws -> (users: [Api.User], chats: [Api.Chat]) {
        var userIds = Set(extraUsers)
        var chatIds = Set<Int64>()
        var channelIds = Set<Int64>()
        for message in messages {
            // Everyone the message shows — a forward's first author too, as Telegram sends them, so that "Forwarded
            // from" has a name (and a forwarded post its channel).
            userIds.formUnion(Self.users(shownIn: message))
            if let bytes = message.forward,
                case .messageFwdHeader(let header)? = try? Api.MessageFwdHeader(tlBytes: bytes),
                case .peerChannel(let channel)? = header.fromId
            {
                channelIds.insert(channel.channelId)
            }
            if message.peer.kind == .chat { chatIds.insert(message.peer.id) }
        }
        let users = try tx.users(ids: userIds).sorted { $0.id < $1.id }.map { try apiUser($0, viewer: viewer, tx: tx) }
        var chats: [Api.Chat] = []
        for id in chatIds.sorted() {
            if let chat = try tx.chat(id: id) { chats.append(apiChat(chat, viewer: viewer, tx: tx)) }
        }
        for id in channelIds.sorted() {
            if let channel = try tx.channel(id: id) { chats.append(try apiChannel(channel, viewer: viewer, tx: tx)) }
        }
        return (users, chats)
    }
}

/// Result encodings for methods whose result is not an object of TelegramApi.
enum Reply {
    /// `boolTrue` / `boolFalse`.
    static func bool(_ value: Bool) -> [UInt8] {
        var writer = TLWriter()
        writer.writeBool(value)
        return writer.takeBytes()
    }

    /// A boxed `Vector<T>`.
    static func vector(_ items: [some TLObject]) -> [UInt8] {
        var writer = TLWriter()
        writer.writeVectorHeader(count: items.count)
        for item in items { item.serialize(&writer) }
        return writer.takeBytes()
    }
}
