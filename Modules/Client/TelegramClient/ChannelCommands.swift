public import Postbox
public import SyncCore
public import TelegramCore

/// What the group and channel commands (`tg create-channel`, `create-group`, `join`, `leave`, `invite`, `members`,
/// `admin`, `ban`) do, over TelegramCore's actions (`Account.createChannel`, `joinChannel`, …): the peers resolved,
/// the result in the shape the commands print, and each `PeerActionError` as the `ClientError` of its exit status —
/// the server's refusals carry Telegram's error name (exit 6).
public enum ChannelCommands {
    /// Creates a broadcast channel (or a supergroup), gives it `username` when one is given, and returns it.
    public static func createChannel(
        _ account: Account, title: String, about: String, username: String?, supergroup: Bool = false
    ) async throws(ClientError) -> PeerId {
        let peerId = try await run("creating the channel") {
            () async throws(PeerActionError) -> PeerId in
            try await account.createChannel(
                title: title, about: about, kind: supergroup ? .supergroup : .broadcast)
        }
        if let username {
            let bare = username.hasPrefix("@") ? String(username.dropFirst()) : username
            try await run("setting @\(bare) (the channel \(PeerResolver.handle(peerId)) was created)") {
                () async throws(PeerActionError) in try await account.setChannelUsername(bare, of: peerId)
            }
        }
        return peerId
    }

    /// Creates a basic group with `users` (or, `supergroup`, a supergroup they are invited to) and returns it.
    public static func createGroup(
        _ account: Account, title: String, users: [PeerId], supergroup: Bool
    ) async throws(ClientError) -> PeerId {
        if !supergroup {
            return try await run("creating the group") { () async throws(PeerActionError) -> PeerId in
                try await account.createGroup(title: title, users: users)
            }
        }
        let peerId = try await run("creating the supergroup") { () async throws(PeerActionError) -> PeerId in
            try await account.createChannel(title: title, kind: .supergroup)
        }
        if !users.isEmpty {
            try await run("inviting to \(PeerResolver.handle(peerId)) (it was created)") {
                () async throws(PeerActionError) in try await account.invite(users, to: peerId)
            }
        }
        return peerId
    }

    /// Joins the public channel or supergroup `@name`.
    public static func join(_ account: Account, username: String) async throws(ClientError) -> PeerId {
        let bare = username.hasPrefix("@") ? String(username.dropFirst()) : username
        return try await run("joining @\(bare)") { () async throws(PeerActionError) -> PeerId in
            try await account.joinChannel(username: bare)
        }
    }

    /// Joins (again) the public channel or supergroup `peerId` the account has stored (one it left, say).
    public static func join(_ account: Account, _ peerId: PeerId) async throws(ClientError) {
        try await run("joining \(PeerResolver.handle(peerId))") { () async throws(PeerActionError) in
            try await account.joinChannel(peerId)
        }
    }

    /// Leaves a channel, supergroup or basic group.
    public static func leave(_ account: Account, _ peerId: PeerId) async throws(ClientError) {
        try await run("leaving \(PeerResolver.handle(peerId))") { () async throws(PeerActionError) in
            try await account.leave(peerId)
        }
    }

    /// Adds users to a channel, supergroup or basic group.
    public static func invite(_ account: Account, _ users: [PeerId], to peerId: PeerId) async throws(ClientError) {
        try await run("inviting to \(PeerResolver.handle(peerId))") { () async throws(PeerActionError) in
            try await account.invite(users, to: peerId)
        }
    }

    /// Renames a channel, supergroup or basic group.
    public static func rename(_ account: Account, _ peerId: PeerId, title: String) async throws(ClientError) {
        try await run("renaming \(PeerResolver.handle(peerId))") { () async throws(PeerActionError) in
            try await account.rename(peerId, title: title)
        }
    }

    /// Sets (a prepared JPEG) or removes (`nil`) the photo of a channel, supergroup or basic group.
    public static func setPhoto(_ account: Account, _ peerId: PeerId, jpeg: [UInt8]?) async throws(ClientError) {
        let what = jpeg == nil ? "removing the photo of" : "setting the photo of"
        try await run("\(what) \(PeerResolver.handle(peerId))") { () async throws(PeerActionError) in
            try await account.setPhoto(peerId, jpeg: jpeg)
        }
    }

    /// At most `limit` members (the admins alone with `admins`), each named.
    public static func members(
        _ account: Account, of peerId: PeerId, limit: Int, admins: Bool
    ) async throws(ClientError) -> (members: [MemberSummary], total: Int) {
        let listed = try await run("listing the members of \(PeerResolver.handle(peerId))") {
            () async throws(PeerActionError) -> ChatMembers in
            try await account.members(of: peerId, filter: admins ? .admins : .recent, limit: limit)
        }
        return (listed.members.map { MemberSummary($0, account: account) }, listed.total)
    }

    /// Makes `user` an admin with `rights`, or (`remove`) takes their rights away.
    public static func setAdmin(
        _ account: Account, _ user: PeerId, in peerId: PeerId, rights: TelegramChatAdminRightsFlags, rank: String?
    ) async throws(ClientError) {
        try await run("changing the admin rights in \(PeerResolver.handle(peerId))") {
            () async throws(PeerActionError) in
            try await account.setAdmin(user, in: peerId, rights: rights, rank: rank)
        }
    }

    /// Bans `user` until `untilDate` (0: for ever), or (`kick`) removes them without keeping them out.
    public static func ban(
        _ account: Account, _ user: PeerId, in peerId: PeerId, untilDate: Int32, kick: Bool
    ) async throws(ClientError) {
        try await run("\(kick ? "removing" : "banning") in \(PeerResolver.handle(peerId))") {
            () async throws(PeerActionError) in
            if kick {
                try await account.kick(user, from: peerId)
            } else if peerId.namespace == Namespaces.Peer.cloudGroup {
                // A basic group has no bans: removing is all it knows.
                try await account.kick(user, from: peerId)
            } else {
                try await account.ban(user, in: peerId, untilDate: untilDate)
            }
        }
    }

    /// `body`, its error as the command's.
    static func run<T>(
        _ what: String, _ body: () async throws(PeerActionError) -> T
    ) async throws(ClientError) -> T {
        do {
            return try await body()
        } catch {
            throw clientError(error, what)
        }
    }

    /// The client error (and so the exit status) for an action's error.
    public static func clientError(_ error: PeerActionError, _ what: String) -> ClientError {
        switch error {
        case .server: return .refused("\(what): \(error)")
        case .network: return .unreachable("\(what): the server did not answer — check that it is running")
        case .unknownPeer(let text), .notFound(let text): return .notFound("\(what): \(text) — see 'tg chats'")
        case .unsupported(let text): return .badInput("\(what): \(text)")
        case .storage(let text): return .storage("\(what): \(text)")
        }
    }
}

/// One member as `tg members` prints it.
public struct MemberSummary: Equatable, Sendable, Encodable {
    /// `user:ID`.
    public var peer: String
    public var name: String
    public var username: String?
    /// `creator`, `admin`, `member`, `restricted`, `banned`, `left`.
    public var role: String
    /// An admin's rights by `tg admin --rights` names; a restricted or banned member's until date (0: for ever).
    public var rights: [String]?
    public var rank: String?
    public var until: Int32?

    init(_ member: ChatMember, account: Account) {
        peer = PeerResolver.handle(member.peerId)
        let stored = try? account.postbox.readTransactionSync { tx in try tx.getPeer(member.peerId) }
        name = PeerResolver.displayName(stored)
        username = (stored as? TelegramUser)?.username
        switch member.role {
        case .creator: role = "creator"
        case .admin(let flags, let title):
            role = "admin"
            rights = AdminRightNames.names(flags)
            rank = title
        case .member: role = "member"
        case .restricted(let banned):
            role = "restricted"
            until = banned.untilDate
        case .banned(let banned):
            role = "banned"
            until = banned.untilDate
        case .left: role = "left"
        }
    }

    private enum CodingKeys: String, CodingKey { case peer, name, username, role, rights, rank, until }

    /// Every key on every member, `null` when it does not apply (as every `--json` object of `tg`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(peer, forKey: .peer)
        try container.encode(name, forKey: .name)
        try container.encode(username, forKey: .username)
        try container.encode(role, forKey: .role)
        try container.encode(rights, forKey: .rights)
        try container.encode(rank, forKey: .rank)
        try container.encode(until, forKey: .until)
    }

    /// `user:ID  Name (@name)  role [rights]`.
    public var line: String {
        var text = "\(peer)  \(name)"
        if let username { text += " (@\(username))" }
        text += "  \(role)"
        if let rights, !rights.isEmpty { text += " " + rights.joined(separator: ",") }
        if let rank { text += " “\(rank)”" }
        if let until, until != 0 { text += " until \(until)" }
        return text
    }
}

/// A group or channel as the group and channel commands print it.
public struct GroupSummary: Equatable, Sendable, Encodable {
    /// `chat:ID` or `channel:ID`.
    public var chat: String
    public var title: String
    public var username: String?
    /// `group` (basic), `supergroup` or `channel` (broadcast).
    public var kind: String

    /// The stored group or channel `peerId`.
    public init(_ peerId: PeerId, account: Account) {
        chat = PeerResolver.handle(peerId)
        let stored = try? account.postbox.readTransactionSync { tx in try tx.getPeer(peerId) }
        title = PeerResolver.displayName(stored)
        let channel = stored as? TelegramChannel
        username = channel?.username
        kind = channel.map { $0.info.isBroadcast ? "channel" : "supergroup" } ?? "group"
    }

    private enum CodingKeys: String, CodingKey { case chat, title, username, kind }

    /// Every key, `null` when it does not apply.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(chat, forKey: .chat)
        try container.encode(title, forKey: .title)
        try container.encode(username, forKey: .username)
        try container.encode(kind, forKey: .kind)
    }

    /// `channel:ID  Title (@name)  channel`.
    public var line: String {
        "\(chat)  \(title)" + (username.map { " (@\($0))" } ?? "") + "  \(kind)"
    }
}
