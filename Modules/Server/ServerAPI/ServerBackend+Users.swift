import Foundation
import ServerStore
import TLRuntime
import TelegramApi

/// `users.*`, `contacts.*` and `account.*` profile methods.
extension ServerBackend {
    /// The account an `InputUser` names, checking its access hash.
    func resolve(_ input: Api.InputUser, caller: Caller, tx: StoreTransaction) throws -> UserRecord? {
        switch input {
        case .inputUserSelf: return try tx.user(id: caller.userId)
        case .inputUser(let user):
            guard let record = try tx.user(id: user.userId),
                record.accessHash == user.accessHash || record.id == caller.userId
            else { return nil }
            return record
        case .inputUserFromMessage(let fromMessage):
            return try user(fromMessage.userId, seenIn: fromMessage.msgId, of: fromMessage.peer, caller: caller, tx: tx)
        case .inputUserEmpty: return nil
        }
    }

    func getUsers(_ call: Api.functions.users.getUsers, caller: Caller) throws -> [UInt8] {
        guard call.id.count <= 200 else { throw APIError.limitInvalid }
        let users = try store.read { tx in
            try call.id.compactMap { try resolve($0, caller: caller, tx: tx) }.map {
                try apiUser($0, viewer: caller.userId, tx: tx)
            }
        }
        return Reply.vector(users)
    }

    func getFullUser(_ call: Api.functions.users.getFullUser, caller: Caller) throws -> Api.users.UserFull {
        let found = try store.read {
            tx -> (UserRecord, Int64?, Api.User, blocked: Bool, blockedBy: Bool, Api.PeerNotifySettings, Int32)? in
            guard let user = try resolve(call.id, caller: caller, tx: tx) else { return nil }
            return (
                user, try tx.topPinnedMessageId(owner: caller.userId, peer: .user(user.id)),
                try apiUser(user, viewer: caller.userId, tx: tx),
                try tx.isBlocked(owner: caller.userId, userId: user.id),
                try user.id != caller.userId && tx.isBlocked(owner: user.id, userId: caller.userId),
                try storedNotifySettings(owner: caller.userId, kind: .user, id: user.id, tx: tx),
                try commonChatsCount(caller.userId, user.id, tx: tx)
            )
        }
        guard let (user, pinned, shown, blocked, blockedBy, notify, common) = found else {
            throw APIError.userIdInvalid
        }
        let full = Api.UserFull.userFull(
            .init(
                blocked: blocked, canPinMessage: true, id: user.id, about: user.about.isEmpty ? nil : user.about,
                settings: .peerSettings(.init()),
                profilePhoto: blockedBy ? nil : user.photo.flatMap { try? Api.Photo(tlBytes: $0) },
                notifySettings: notify, pinnedMsgId: pinned.map { Int32(truncatingIfNeeded: $0) },
                commonChatsCount: common))
        return .userFull(.init(fullUser: full, chats: [], users: [shown]))
    }

    /// Telegram's username rules: 5–32 characters, a letter first, then letters, digits and underscores, no
    /// underscore at the end or twice in a row.
    static func isValidUsername(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard (5...32).contains(scalars.count), let first = scalars.first, first.isASCIILetter else { return false }
        guard scalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" }) else { return false }
        return scalars.last != "_" && !name.contains("__")
    }

    func checkUsername(_ call: Api.functions.account.checkUsername, caller: Caller) throws -> [UInt8] {
        guard Self.isValidUsername(call.username) else { throw APIError.badRequest("USERNAME_INVALID") }
        let (owner, channel) = try store.read { tx in
            (try tx.user(username: call.username), try tx.channel(username: call.username))
        }
        guard (owner == nil || owner?.id == caller.userId) && channel == nil else {
            throw APIError.badRequest("USERNAME_OCCUPIED")
        }
        return Reply.bool(true)
    }

    func updateUsername(_ call: Api.functions.account.updateUsername, caller: Caller) throws -> Api.User {
        let name = call.username
        guard name.isEmpty || Self.isValidUsername(name) else { throw APIError.badRequest("USERNAME_INVALID") }
        let date = now
        let (user, _) = try store.write(
            { [self] tx throws -> (UserRecord?, [Push]) in
                guard var user = try tx.user(id: caller.userId) else { return (nil, []) }
                if name.isEmpty {
                    user.username = nil
                } else {
                    if let owner = try tx.user(username: name), owner.id != user.id { return (user, []) }
                    if try tx.channel(username: name) != nil { return (user, []) }
                    user.username = name
                }
                guard try tx.user(id: caller.userId)?.username != user.username else { return (user, []) }
                try tx.update(user)
                return (user, try profilePushes(of: user, Self.nameUpdate(user), date: date, tx: tx))
            }, then: { [self] in send($0.1, caller: caller) })
        guard let user else { throw APIError.authKeyUnregistered }
        guard name.isEmpty || user.username == name else { throw APIError.badRequest("USERNAME_OCCUPIED") }
        return try readApiUser(user, viewer: caller.userId)
    }

    func updateProfile(_ call: Api.functions.account.updateProfile, caller: Caller) throws -> Api.User {
        if let first = call.firstName {
            guard !first.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw APIError.badRequest("FIRSTNAME_INVALID")
            }
            try TextLimit.firstName.check(first)
        }
        if let last = call.lastName { try TextLimit.lastName.check(last) }
        if let about = call.about { try TextLimit.about.check(about) }
        let date = now
        let (user, _) = try store.write(
            { [self] tx throws -> (UserRecord?, [Push]) in
                guard var user = try tx.user(id: caller.userId) else { return (nil, []) }
                let before = user
                if let first = call.firstName { user.firstName = first }
                if let last = call.lastName { user.lastName = last }
                if let about = call.about { user.about = about }
                try tx.update(user)
                // Only a new name is told to others (the bio is read with `users.getFullUser`).
                guard user.firstName != before.firstName || user.lastName != before.lastName else { return (user, []) }
                return (user, try profilePushes(of: user, Self.nameUpdate(user), date: date, tx: tx))
            }, then: { [self] in send($0.1, caller: caller) })
        guard let user else { throw APIError.authKeyUnregistered }
        return try readApiUser(user, viewer: caller.userId)
    }

    /// `apiUser` in a read transaction of its own (never from inside one).
    func readApiUser(_ user: UserRecord, viewer: Int64) throws -> Api.User {
        try store.read { tx in try apiUser(user, viewer: viewer, tx: tx) }
    }

    func resolveUsername(
        _ call: Api.functions.contacts.resolveUsername, caller: Caller
    ) throws -> Api.contacts.ResolvedPeer {
        let name = call.username.hasPrefix("@") ? String(call.username.dropFirst()) : call.username
        guard Self.isValidUsername(name) else { throw APIError.badRequest("USERNAME_INVALID") }
        let (found, channel) = try store.read { tx throws -> (UserRecord?, Api.Chat?) in
            if let user = try tx.user(username: name) { return (user, nil) }
            // A public channel: found by anyone, shown with the finder's access hash.
            guard let channel = try tx.channel(username: name) else { return (nil, nil) }
            let member = try tx.channelMember(channelId: channel.id, userId: caller.userId)
            if member?.status == .banned { return (nil, nil) }
            return (nil, try apiChannel(channel, member: member, viewer: caller.userId, tx: tx))
        }
        if let channel, case .channel(let shown) = channel {
            return .resolvedPeer(.init(peer: .peerChannel(.init(channelId: shown.id)), chats: [channel], users: []))
        }
        guard let user = found else { throw APIError.badRequest("USERNAME_NOT_OCCUPIED") }
        return .resolvedPeer(
            .init(
                peer: .peerUser(.init(userId: user.id)), chats: [],
                users: [try readApiUser(user, viewer: caller.userId)]))
    }

    /// `contacts.search`: the caller's contacts by name or username (`my_results`), anyone else by public username
    /// only (`results`); a stranger is never found by name.
    func searchContacts(_ call: Api.functions.contacts.search, caller: Caller) throws -> Api.contacts.Found {
        let query = call.q.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "@"))
        guard query.count >= 1 else { throw APIError.badRequest("QUERY_TOO_SHORT") }
        let limit = Int(min(max(call.limit, 1), 100))
        let (contacts, others) = try store.read { tx in
            try tx.searchUsers(prefix: query, owner: caller.userId, limit: limit)
        }
        return .found(
            .init(
                myResults: contacts.map { .peerUser(.init(userId: $0.id)) },
                results: others.map { .peerUser(.init(userId: $0.id)) },
                chats: [],
                users: try store.read { tx in
                    try (contacts + others).map { try apiUser($0, viewer: caller.userId, tx: tx) }
                }))
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
