import CryptoUtils
import Foundation
import ServerStore
import TLRuntime
import TelegramApi

/// Invite links of basic groups and channels (core.telegram.org "Invite links and join requests", methods
/// `messages.exportChatInvite`, `checkChatInvite`, `importChatInvite`, `getExportedChatInvites`,
/// `editExportedChatInvite`, `deleteExportedChatInvite`, `hideChatJoinRequest`, `getChatInviteImporters`).
///
/// A link is `https://t.me/+HASH`, its hash 16 random bytes in base64url (22 characters): unguessable, and wrong
/// hashes are still counted per account (`AttemptLimit.inviteHashGuesses`, `FLOOD_WAIT_X`) as other guessable things
/// are. Links are made by admins who may invite (`invite_users` in channels; the creator of a basic group); joining
/// through one is `messageActionChatJoinedByLink` (in supergroups and basic groups; broadcast channels stay silent),
/// through an approved request `messageActionChatJoinedByRequest`.
extension ServerBackend {
    static let inviteLinkPrefix = "https://t.me/+"
    /// Links an admin may hold unrevoked in one conversation (`INVITES_TOO_MUCH`).
    static let maximumInvitesPerAdmin = 1000
    /// Join requests that may wait on one conversation.
    static let maximumJoinRequests = 10_000
    /// Telegram's bounds: a link's `usage_limit` 1–99,999, its title up to 32 characters.
    static let inviteUsageLimits: ClosedRange<Int32> = 1...99_999
    static let inviteTitleLimit = 32

    /// A new link hash: 16 random bytes, base64url without padding.
    static func newInviteHash() -> String { PushFiles.base64URL(SecureRandom.bytes(16)) }

    /// The hash a link names: `https://t.me/+HASH`, `t.me/joinchat/HASH`, or the bare hash; `nil` when it holds
    /// anything but base64url characters or is not 1–64 long.
    static func inviteHash(_ link: String) -> String? {
        var hash = Substring(link)
        if let slash = hash.lastIndex(of: "/") { hash = hash[hash.index(after: slash)...] }
        if hash.hasPrefix("+") { hash = hash.dropFirst() }
        guard (1...64).contains(hash.count),
            hash.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_"
            })
        else { return nil }
        return String(hash)
    }

    /// A conversation links open, as the caller reaches it.
    enum InviteTarget {
        case chat(ChatRecord)
        case channel(ChannelAccess)

        var kind: InvitePeerKind {
            if case .chat = self { return .chat }
            return .channel
        }

        var id: Int64 {
            switch self {
            case .chat(let chat): return chat.id
            case .channel(let access): return access.channel.id
            }
        }

        /// Whether `userId` made it (and so holds every right).
        func isCreator(_ userId: Int64) -> Bool {
            switch self {
            case .chat(let chat): return chat.creator == userId
            case .channel(let access): return access.isCreator
            }
        }
    }

    /// The conversation `peer` names, for someone who may manage its links: `CHAT_ADMIN_REQUIRED` otherwise.
    func inviteTarget(_ peer: Api.InputPeer, caller: Caller, tx: StoreTransaction) throws -> InviteTarget {
        if let access = try channelAccess(peer, caller: caller, need: .member, tx: tx) {
            guard access.can(\.inviteUsers) else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
            return .channel(access)
        }
        guard case .inputPeerChat(let input) = peer else { throw APIError.peerIdInvalid }
        guard let chat = try tx.chat(id: input.chatId), chat.members.contains(where: { $0.userId == caller.userId })
        else {
            throw APIError.chatIdInvalid
        }
        try Self.checkNotMigrated(chat)
        guard chat.creator == caller.userId else { throw APIError.badRequest("CHAT_ADMIN_REQUIRED") }
        return .chat(chat)
    }

    /// A link as its admins see it (`chatInviteExported`), with how many requests wait on it.
    func apiInvite(_ invite: ChatInviteRecord, tx: StoreTransaction) throws -> Api.ExportedChatInvite {
        let requested = invite.requestNeeded ? try tx.pendingRequestCount(hash: invite.hash) : 0
        return .chatInviteExported(
            .init(
                revoked: invite.revoked, permanent: invite.permanent, requestNeeded: invite.requestNeeded,
                link: Self.inviteLinkPrefix + invite.hash, adminId: invite.adminId, date: invite.date,
                expireDate: invite.expireDate, usageLimit: invite.usageLimit,
                usage: invite.usage > 0 ? invite.usage : nil,
                requested: requested > 0 ? Int32(clamping: requested) : nil,
                title: invite.title))
    }

    /// Whether a link no longer admits anyone at `date`: revoked, expired or used up (`INVITE_HASH_EXPIRED`).
    static func isExhausted(_ invite: ChatInviteRecord, date: Int32) -> Bool {
        invite.revoked || (invite.expireDate.map { $0 <= date } ?? false)
            || (invite.usageLimit.map { invite.usage >= $0 } ?? false)
    }

    /// Checks what `exportChatInvite` / `editExportedChatInvite` set: `EXPIRE_DATE_INVALID` for a past date,
    /// `USAGE_LIMIT_INVALID` outside 1–99,999 or together with `request_needed` (an approved request is not a use),
    /// `TITLE_INVALID` past 32 characters.
    static func checkInviteSettings(
        expireDate: Int32?, usageLimit: Int32?, requestNeeded: Bool, title: String?, now: Int32
    ) throws {
        if let expireDate, expireDate != 0, expireDate <= now { throw APIError.badRequest("EXPIRE_DATE_INVALID") }
        if let usageLimit, usageLimit != 0 {
            guard inviteUsageLimits.contains(usageLimit), !requestNeeded else {
                throw APIError.badRequest("USAGE_LIMIT_INVALID")
            }
        }
        if let title, title.count > inviteTitleLimit { throw APIError.badRequest("TITLE_INVALID") }
    }

    /// `messages.exportChatInvite`: a new link of the caller's; with `legacy_revoke_permanent` it replaces their
    /// primary link (the old one revoked).
    func exportChatInvite(
        _ call: Api.functions.messages.exportChatInvite, caller: Caller
    ) throws -> Api.ExportedChatInvite {
        guard call.subscriptionPricing == nil else { throw APIError.badRequest("SUBSCRIPTION_PRICING_INVALID") }
        let date = now
        try Self.checkInviteSettings(
            expireDate: call.expireDate, usageLimit: call.usageLimit, requestNeeded: call.requestNeeded,
            title: call.title, now: date)
        return try store.write { [self] tx throws -> Api.ExportedChatInvite in
            let target = try inviteTarget(call.peer, caller: caller, tx: tx)
            if call.legacyRevokePermanent,
                var old = try tx.permanentInvite(peerKind: target.kind, peerId: target.id, adminId: caller.userId)
            {
                old.revoked = true
                try tx.save(old)
            }
            guard
                try tx.inviteCount(peerKind: target.kind, peerId: target.id, adminId: caller.userId, revoked: false)
                    < Self.maximumInvitesPerAdmin
            else {
                throw APIError.badRequest("INVITES_TOO_MUCH")
            }
            let invite = ChatInviteRecord(
                hash: Self.newInviteHash(), peerKind: target.kind, peerId: target.id, adminId: caller.userId,
                date: date, expireDate: call.expireDate.flatMap { $0 == 0 ? nil : $0 },
                usageLimit: call.usageLimit.flatMap { $0 == 0 ? nil : $0 }, requestNeeded: call.requestNeeded,
                title: call.title.flatMap { $0.isEmpty ? nil : $0 }, permanent: call.legacyRevokePermanent)
            try tx.save(invite)
            return try apiInvite(invite, tx: tx)
        }
    }

    /// Throws `FLOOD_WAIT_X` while the caller's wrong hashes block them.
    private func checkInviteGuesses(_ caller: Caller) throws {
        try checkAttempts(.inviteHashGuesses, String(caller.userId)) { .floodWait(Int($0)) }
    }

    /// The live link `hash` names, counting a wrong one against the caller (`INVITE_HASH_INVALID`).
    private func knownInvite(_ hash: String, caller: Caller) throws -> ChatInviteRecord {
        try checkInviteGuesses(caller)
        let found = try store.read { [self] tx -> ChatInviteRecord? in
            guard let hash = Self.inviteHash(hash), let invite = try tx.invite(hash: hash) else { return nil }
            switch invite.peerKind {
            case .chat: return try tx.chat(id: invite.peerId) == nil ? nil : invite
            case .channel: return try tx.channel(id: invite.peerId)?.deleted == false ? invite : nil
            }
        }
        guard let found else {
            try store.write { [self] tx in try countAttempt(.inviteHashGuesses, String(caller.userId), tx: tx) }
            throw APIError.badRequest("INVITE_HASH_INVALID")
        }
        return found
    }

    /// The photo a `chatInvite` shows: the chat's own, or `photoEmpty`.
    static func invitePhoto(_ bytes: [UInt8]?) -> Api.Photo {
        bytes.flatMap { try? Api.Photo(tlBytes: $0) } ?? .photoEmpty(.init(id: 0))
    }

    /// `messages.checkChatInvite`: `INVITE_HASH_EXPIRED` for a revoked or expired link; `chatInviteAlready` for a
    /// member; `INVITE_HASH_EXPIRED` for a used-up link; else `chatInvite` with what a stranger may know (title,
    /// about, photo, size, kind, whether joining asks first).
    func checkChatInvite(_ call: Api.functions.messages.checkChatInvite, caller: Caller) throws -> Api.ChatInvite {
        let invite = try knownInvite(call.hash, caller: caller)
        let date = now
        // Revoked or past its date it is over for everyone; used up, only for those it would still admit.
        if invite.revoked || (invite.expireDate.map { $0 <= date } ?? false) {
            throw APIError.badRequest("INVITE_HASH_EXPIRED")
        }
        return try store.read { [self] tx throws -> Api.ChatInvite in
            switch invite.peerKind {
            case .chat:
                guard let chat = try tx.chat(id: invite.peerId) else {
                    throw APIError.badRequest("INVITE_HASH_INVALID")
                }
                if chat.members.contains(where: { $0.userId == caller.userId }) {
                    return .chatInviteAlready(.init(chat: apiChat(chat, viewer: caller.userId, tx: tx)))
                }
                guard !Self.isExhausted(invite, date: date) else { throw APIError.badRequest("INVITE_HASH_EXPIRED") }
                let members = try apiUsers(
                    chat.members.prefix(10).map(\.userId), viewer: caller.userId, tx: tx)
                return .chatInvite(
                    .init(
                        requestNeeded: invite.requestNeeded, title: chat.title, photo: Self.invitePhoto(chat.photo),
                        participantsCount: Int32(chat.members.count), participants: members, color: 0))
            case .channel:
                guard let channel = try tx.channel(id: invite.peerId) else {
                    throw APIError.badRequest("INVITE_HASH_INVALID")
                }
                let member = try tx.channelMember(channelId: channel.id, userId: caller.userId)
                if member?.status == .member {
                    return .chatInviteAlready(
                        .init(chat: try apiChannel(channel, member: member, viewer: caller.userId, tx: tx)))
                }
                guard !Self.isExhausted(invite, date: date) else { throw APIError.badRequest("INVITE_HASH_EXPIRED") }
                return .chatInvite(
                    .init(
                        channel: true, broadcast: channel.broadcast, public: channel.username != nil,
                        megagroup: !channel.broadcast, requestNeeded: invite.requestNeeded, title: channel.title,
                        about: channel.about.isEmpty ? nil : channel.about, photo: Self.invitePhoto(channel.photo),
                        participantsCount: Int32(clamping: try tx.channelMemberCount(channelId: channel.id)),
                        color: 0))
            }
        }
    }

    /// `messages.importChatInvite`: joins through the link (`messageActionChatJoinedByLink` naming its admin); a link
    /// that asks first records a request and answers `INVITE_REQUEST_SENT`. `USER_ALREADY_PARTICIPANT` for members,
    /// `INVITE_HASH_EXPIRED` for a revoked, expired or used-up link, `USERS_TOO_MUCH` when the group is full,
    /// `CHANNEL_PRIVATE` for someone banned from the channel.
    func importChatInvite(
        _ call: Api.functions.messages.importChatInvite, caller: Caller
    ) throws -> Api.messages.ChatInviteJoinResult {
        let invite = try knownInvite(call.hash, caller: caller)
        let date = now
        switch invite.peerKind {
        case .channel:
            var pushes: [Push] = []
            let updates = try store.write(
                { [self] tx throws -> Api.Updates in
                    guard let channel = try tx.channel(id: invite.peerId), !channel.deleted,
                        let current = try tx.invite(hash: invite.hash)
                    else {
                        throw APIError.badRequest("INVITE_HASH_INVALID")
                    }
                    let member = try tx.channelMember(channelId: channel.id, userId: caller.userId)
                    if member?.status == .member { throw APIError.badRequest("USER_ALREADY_PARTICIPANT") }
                    if member?.status == .banned { throw APIError.badRequest("CHANNEL_PRIVATE") }
                    guard !Self.isExhausted(current, date: date) else {
                        throw APIError.badRequest("INVITE_HASH_EXPIRED")
                    }
                    if current.requestNeeded {
                        try request(current, caller: caller, date: date, tx: tx)
                        pushes = try pendingRequestPushes(kind: .channel, id: channel.id, date: date, tx: tx)
                        return .updates(.init(updates: [], users: [], chats: [], date: date, seq: 0))
                    }
                    try admit(caller.userId, to: channel, inviter: current.adminId, date: date, tx: tx)
                    try countUse(current, userId: caller.userId, approvedBy: nil, date: date, tx: tx)
                    return try membershipChange(
                        channel, action: .messageActionChatJoinedByLink(.init(inviterId: current.adminId)),
                        concerned: [caller.userId], caller: caller, date: date, tx: tx, pushes: &pushes)
                }, then: { [self] _ in send(pushes, caller: caller) })
            if invite.requestNeeded, case .updates(let body) = updates, body.updates.isEmpty {
                throw APIError.badRequest("INVITE_REQUEST_SENT")
            }
            return .chatInviteJoinResultOk(.init(updates: updates))
        case .chat:
            var pushes: [Push] = []
            let requested = try store.write(
                { [self] tx throws -> Bool in
                    guard let chat = try tx.chat(id: invite.peerId), let current = try tx.invite(hash: invite.hash)
                    else {
                        throw APIError.badRequest("INVITE_HASH_INVALID")
                    }
                    try Self.checkNotMigrated(chat)
                    if chat.members.contains(where: { $0.userId == caller.userId }) {
                        throw APIError.badRequest("USER_ALREADY_PARTICIPANT")
                    }
                    guard !Self.isExhausted(current, date: date) else {
                        throw APIError.badRequest("INVITE_HASH_EXPIRED")
                    }
                    if current.requestNeeded {
                        try request(current, caller: caller, date: date, tx: tx)
                        pushes = try pendingRequestPushes(kind: .chat, id: chat.id, date: date, tx: tx)
                        return true
                    }
                    try addToChat(chat, userId: caller.userId, inviter: current.adminId, date: date, tx: tx)
                    try countUse(current, userId: caller.userId, approvedBy: nil, date: date, tx: tx)
                    return false
                }, then: { [self] _ in send(pushes, caller: caller) })
            if requested { throw APIError.badRequest("INVITE_REQUEST_SENT") }
            let landed = try deliver(
                [
                    Outgoing(
                        text: "", randomId: Self.randomId(),
                        action: .messageActionChatJoinedByLink(.init(inviterId: invite.adminId)))
                ], to: .inputPeerChat(.init(chatId: invite.peerId)), caller: caller)
            return .chatInviteJoinResultOk(.init(updates: try sentUpdates(landed, caller: caller)))
        }
    }

    /// Records `caller`'s request to join through `invite` (once; bounded per conversation).
    private func request(_ invite: ChatInviteRecord, caller: Caller, date: Int32, tx: StoreTransaction) throws {
        if let existing = try tx.importer(peerKind: invite.peerKind, peerId: invite.peerId, userId: caller.userId),
            existing.requested
        {
            return
        }
        guard
            try tx.pendingRequestCount(peerKind: invite.peerKind, peerId: invite.peerId) < Self.maximumJoinRequests
        else {
            throw APIError.badRequest("USERS_TOO_MUCH")
        }
        try tx.save(
            ChatInviteImporterRecord(
                peerKind: invite.peerKind, peerId: invite.peerId, userId: caller.userId, hash: invite.hash, date: date,
                requested: true))
    }

    /// Counts one join through `invite` and records who came.
    private func countUse(
        _ invite: ChatInviteRecord, userId: Int64, approvedBy: Int64?, date: Int32, tx: StoreTransaction
    ) throws {
        var used = invite
        used.usage += 1
        try tx.save(used)
        try tx.save(
            ChatInviteImporterRecord(
                peerKind: invite.peerKind, peerId: invite.peerId, userId: userId, hash: invite.hash, date: date,
                requested: false, approvedBy: approvedBy))
    }

    /// Adds `userId` to a basic group (`USERS_TOO_MUCH` when full).
    private func addToChat(
        _ chat: ChatRecord, userId: Int64, inviter: Int64, date: Int32, tx: StoreTransaction
    ) throws {
        guard chat.members.count < Self.maximumChatMembers else { throw APIError.badRequest("USERS_TOO_MUCH") }
        guard try tx.addMember(ChatMemberRecord(userId: userId, inviter: inviter, date: date), to: chat.id) else {
            throw APIError.badRequest("USER_ALREADY_PARTICIPANT")
        }
        try tx.bumpVersion(chatId: chat.id)
    }

    /// The link `link` names among the target's, when the caller may manage it (theirs, or any for the creator).
    private func managedInvite(
        _ link: String, target: InviteTarget, caller: Caller, tx: StoreTransaction
    ) throws -> ChatInviteRecord {
        guard let hash = Self.inviteHash(link), let invite = try tx.invite(hash: hash),
            invite.peerKind == target.kind, invite.peerId == target.id
        else {
            throw APIError.badRequest("INVITE_HASH_INVALID")
        }
        guard invite.adminId == caller.userId || target.isCreator(caller.userId) else {
            throw APIError.badRequest("CHAT_ADMIN_REQUIRED")
        }
        return invite
    }

    /// `messages.getExportedChatInvites`: an admin's links (the caller's own; anyone's for the creator), revoked
    /// ones or live ones, newest first, paged by `offset_date` / `offset_link`; at most 100.
    func getExportedChatInvites(
        _ call: Api.functions.messages.getExportedChatInvites, caller: Caller
    ) throws -> Api.messages.ExportedChatInvites {
        try store.read { [self] tx throws -> Api.messages.ExportedChatInvites in
            let target = try inviteTarget(call.peer, caller: caller, tx: tx)
            guard let admin = try resolve(call.adminId, caller: caller, tx: tx) else { throw APIError.userIdInvalid }
            guard admin.id == caller.userId || target.isCreator(caller.userId) else {
                throw APIError.badRequest("CHAT_ADMIN_REQUIRED")
            }
            let before = call.offsetDate.flatMap { date in
                call.offsetLink.flatMap(Self.inviteHash).map { (date: date, hash: $0) }
            }
            let invites = try tx.invites(
                peerKind: target.kind, peerId: target.id, adminId: admin.id, revoked: call.revoked, before: before,
                limit: Self.checkedLimit(call.limit))
            return .exportedChatInvites(
                .init(
                    count: Int32(
                        clamping: try tx.inviteCount(
                            peerKind: target.kind, peerId: target.id, adminId: admin.id, revoked: call.revoked)),
                    invites: try invites.map { try apiInvite($0, tx: tx) },
                    users: [try apiUser(admin, viewer: caller.userId, tx: tx)]))
        }
    }

    /// `messages.editExportedChatInvite`: `revoked` revokes it (a primary link is replaced by a new one:
    /// `exportedChatInviteReplaced`); otherwise its expiry, limit, request flag and title change.
    func editExportedChatInvite(
        _ call: Api.functions.messages.editExportedChatInvite, caller: Caller
    ) throws -> Api.messages.ExportedChatInvite {
        let date = now
        return try store.write { [self] tx throws -> Api.messages.ExportedChatInvite in
            let target = try inviteTarget(call.peer, caller: caller, tx: tx)
            var invite = try managedInvite(call.link, target: target, caller: caller, tx: tx)
            let users = try apiUsers([invite.adminId, caller.userId], viewer: caller.userId, tx: tx)
            if call.revoked {
                guard !invite.revoked else { throw APIError.badRequest("INVITE_HASH_EXPIRED") }
                invite.revoked = true
                try tx.save(invite)
                if invite.permanent {
                    let replacement = ChatInviteRecord(
                        hash: Self.newInviteHash(), peerKind: invite.peerKind, peerId: invite.peerId,
                        adminId: invite.adminId, date: date, permanent: true)
                    try tx.save(replacement)
                    return .exportedChatInviteReplaced(
                        .init(
                            invite: try apiInvite(invite, tx: tx), newInvite: try apiInvite(replacement, tx: tx),
                            users: users))
                }
                return .exportedChatInvite(.init(invite: try apiInvite(invite, tx: tx), users: users))
            }
            guard !invite.revoked else { throw APIError.badRequest("INVITE_HASH_EXPIRED") }
            let requestNeeded = call.requestNeeded ?? invite.requestNeeded
            let usageLimit = call.usageLimit ?? invite.usageLimit
            try Self.checkInviteSettings(
                expireDate: call.expireDate, usageLimit: usageLimit, requestNeeded: requestNeeded, title: call.title,
                now: date)
            if let expireDate = call.expireDate { invite.expireDate = expireDate == 0 ? nil : expireDate }
            invite.usageLimit = usageLimit.flatMap { $0 == 0 ? nil : $0 }
            invite.requestNeeded = requestNeeded
            if let title = call.title { invite.title = title.isEmpty ? nil : title }
            try tx.save(invite)
            return .exportedChatInvite(.init(invite: try apiInvite(invite, tx: tx), users: users))
        }
    }

    /// `messages.deleteExportedChatInvite`: only revoked links are deleted (`INVITE_REVOKED_MISSING` otherwise).
    func deleteExportedChatInvite(
        _ call: Api.functions.messages.deleteExportedChatInvite, caller: Caller
    ) throws -> [UInt8] {
        try store.write { [self] tx throws in
            let target = try inviteTarget(call.peer, caller: caller, tx: tx)
            let invite = try managedInvite(call.link, target: target, caller: caller, tx: tx)
            guard invite.revoked else { throw APIError.badRequest("INVITE_REVOKED_MISSING") }
            _ = try tx.deleteInvite(hash: invite.hash)
        }
        return Reply.bool(true)
    }

    /// `messages.hideChatJoinRequest`: approving admits the requester (`messageActionChatJoinedByRequest`, from
    /// them), declining forgets the request; `HIDE_REQUESTER_MISSING` when there is none.
    func hideChatJoinRequest(_ call: Api.functions.messages.hideChatJoinRequest, caller: Caller) throws -> Api.Updates {
        let date = now
        var pushes: [Push] = []
        var joinedChat: (chatId: Int64, userId: Int64)?
        let updates = try store.write(
            { [self] tx throws -> Api.Updates in
                let target = try inviteTarget(call.peer, caller: caller, tx: tx)
                guard let user = try resolve(call.userId, caller: caller, tx: tx) else { throw APIError.userIdInvalid }
                guard let request = try tx.importer(peerKind: target.kind, peerId: target.id, userId: user.id),
                    request.requested
                else {
                    throw APIError.badRequest("HIDE_REQUESTER_MISSING")
                }
                let empty = Api.Updates.updates(.init(updates: [], users: [], chats: [], date: date, seq: 0))
                guard call.approved else {
                    try tx.deleteImporter(peerKind: target.kind, peerId: target.id, userId: user.id)
                    pushes = try pendingRequestPushes(kind: target.kind, id: target.id, date: date, tx: tx)
                    return empty
                }
                let invite = try tx.invite(hash: request.hash)
                switch target {
                case .channel(let access):
                    let inviter = invite?.adminId ?? caller.userId
                    if try tx.channelMember(channelId: access.channel.id, userId: user.id)?.status == .member {
                        try tx.deleteImporter(peerKind: target.kind, peerId: target.id, userId: user.id)
                        throw APIError.badRequest("USER_ALREADY_PARTICIPANT")
                    }
                    try admit(user.id, to: access.channel, inviter: inviter, date: date, tx: tx)
                    if let invite {
                        try countUse(invite, userId: user.id, approvedBy: caller.userId, date: date, tx: tx)
                    }
                    let pending = try pendingRequestPushes(kind: target.kind, id: target.id, date: date, tx: tx)
                    defer { pushes += pending }
                    return try membershipChange(
                        access.channel, action: .messageActionChatJoinedByRequest, concerned: [user.id],
                        caller: caller, sender: user.id, date: date, tx: tx, pushes: &pushes)
                case .chat(let chat):
                    try addToChat(chat, userId: user.id, inviter: invite?.adminId ?? caller.userId, date: date, tx: tx)
                    if let invite {
                        try countUse(invite, userId: user.id, approvedBy: caller.userId, date: date, tx: tx)
                    }
                    joinedChat = (chat.id, user.id)
                    pushes = try pendingRequestPushes(kind: target.kind, id: target.id, date: date, tx: tx)
                    return empty
                }
            }, then: { [self] _ in send(pushes, caller: caller) })
        guard let joinedChat else { return updates }
        // In a basic group the service message comes from the one who joined, into every member's box.
        let landed = try deliver(
            [Outgoing(text: "", randomId: Self.randomId(), action: .messageActionChatJoinedByRequest)],
            to: .inputPeerChat(.init(chatId: joinedChat.chatId)),
            caller: Caller(
                authKeyId: 0, sessionId: 0, dc: caller.dc, userId: joinedChat.userId, withoutUpdates: false))
        return try sentUpdates(landed, caller: caller)
    }

    /// `messages.getChatInviteImporters`: who joined (or, `requested`, asks to join), through one link or any,
    /// newest first, paged by `offset_date` / `offset_user`; `q` keeps those whose name starts with it; at most 100.
    func getChatInviteImporters(
        _ call: Api.functions.messages.getChatInviteImporters, caller: Caller
    ) throws -> Api.messages.ChatInviteImporters {
        try store.read { [self] tx throws -> Api.messages.ChatInviteImporters in
            let target = try inviteTarget(call.peer, caller: caller, tx: tx)
            let hash = try call.link.map { link -> String in
                guard let hash = Self.inviteHash(link) else { throw APIError.badRequest("INVITE_HASH_INVALID") }
                return hash
            }
            var before: (date: Int32, userId: Int64)?
            if call.offsetDate > 0, let user = try resolve(call.offsetUser, caller: caller, tx: tx) {
                before = (call.offsetDate, user.id)
            }
            let limit = Self.checkedLimit(call.limit)
            var found = try tx.importers(
                peerKind: target.kind, peerId: target.id, requested: call.requested, hash: hash, before: before,
                limit: call.q == nil ? limit : Self.maximumJoinRequests)
            let users = try tx.users(ids: found.map(\.userId))
            if let q = call.q?.lowercased(), !q.isEmpty {
                let matching = Set(
                    users.filter {
                        $0.firstName.lowercased().hasPrefix(q) || $0.lastName.lowercased().hasPrefix(q)
                            || ($0.username?.lowercased().hasPrefix(q) ?? false)
                    }.map(\.id))
                found = Array(found.filter { matching.contains($0.userId) }.prefix(limit))
            }
            let shown = Set(found.map(\.userId))
            return .chatInviteImporters(
                .init(
                    count: Int32(clamping: found.count),
                    importers: found.map {
                        .chatInviteImporter(
                            .init(
                                requested: $0.requested, userId: $0.userId, date: $0.date, approvedBy: $0.approvedBy))
                    },
                    users: try users.filter { shown.contains($0.id) }.sorted { $0.id < $1.id }.map {
                        try apiUser($0, viewer: caller.userId, tx: tx)
                    }))
        }
    }

    /// What a full chat shows an admin who may manage links: their primary link (`exported_invite`), how many join
    /// requests wait (`requests_pending`) and the newest requesters (`recent_requesters`, at most 5); nothing to
    /// anyone else.
    func inviteInfo(
        kind: InvitePeerKind, id: Int64, viewer: Int64, canManage: Bool, tx: StoreTransaction
    ) throws -> (invite: Api.ExportedChatInvite?, pending: Int32?, recent: [Int64]?) {
        guard canManage else { return (nil, nil, nil) }
        let invite = try tx.permanentInvite(peerKind: kind, peerId: id, adminId: viewer).map {
            try apiInvite($0, tx: tx)
        }
        let pending = try tx.pendingRequestCount(peerKind: kind, peerId: id)
        guard pending > 0 else { return (invite, nil, nil) }
        let recent = try tx.importers(peerKind: kind, peerId: id, requested: true, hash: nil, before: nil, limit: 5)
        return (invite, Int32(clamping: pending), recent.map(\.userId))
    }

    /// `updatePendingJoinRequests` (how many wait, the newest 5 requesters) to every admin of the conversation who
    /// may manage its links: a channel's creator and admins with `invite_users`, a basic group's creator.
    func pendingRequestPushes(kind: InvitePeerKind, id: Int64, date: Int32, tx: StoreTransaction) throws -> [Push] {
        let pending = Int32(clamping: try tx.pendingRequestCount(peerKind: kind, peerId: id))
        let recent = try tx.importers(peerKind: kind, peerId: id, requested: true, hash: nil, before: nil, limit: 5)
            .map(\.userId)
        var admins: [(userId: Int64, chat: Api.Chat)] = []
        switch kind {
        case .chat:
            guard let chat = try tx.chat(id: id) else { return [] }
            admins = [(chat.creator, apiChat(chat, viewer: chat.creator, tx: tx))]
        case .channel:
            guard let channel = try tx.channel(id: id) else { return [] }
            for member in try tx.channelMembers(
                channelId: id, status: .member, adminsOnly: true, limit: Self.maximumChannelMembers)
            {
                let access = ChannelAccess(channel: channel, member: member, viewer: member.userId)
                guard access.can(\.inviteUsers) else { continue }
                admins.append(
                    (member.userId, try apiChannel(channel, member: member, viewer: member.userId, tx: tx)))
            }
        }
        let peer: Api.Peer = kind == .chat ? .peerChat(.init(chatId: id)) : .peerChannel(.init(channelId: id))
        return try admins.map { admin in
            Push(
                authKeyIds: try authKeys(of: admin.userId, tx: tx),
                updates: .updates(
                    .init(
                        updates: [
                            .updatePendingJoinRequests(
                                .init(peer: peer, requestsPending: pending, recentRequesters: recent))
                        ], users: try apiUsers(recent, viewer: admin.userId, tx: tx), chats: [admin.chat], date: date,
                        seq: 0)))
        }
    }
}
