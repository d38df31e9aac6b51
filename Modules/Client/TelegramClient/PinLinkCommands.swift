import Foundation
public import Postbox
import SyncCore
public import TelegramCore

/// What `tg pin`, `tg link`, `tg join LINK` and `tg requests` do, over TelegramCore's `Account.pin`, `unpin`,
/// `exportInviteLink`, `revokeInviteLink`, `joinByInviteLink`, `joinRequests`, `approveJoinRequest`: the result in
/// the shape the commands print and each `PeerActionError` as the `ClientError` of its exit status.
public enum PinLinkCommands {
    /// Pins (or, `unpin`, unpins) message `id` of `peerId`'s chat; `oneSide`: in a private chat, for oneself only.
    public static func pin(
        _ account: Account, _ peerId: PeerId, id: Int32, silent: Bool, unpin: Bool, oneSide: Bool = false
    ) async throws(ClientError) {
        let messageId = MessageId(peerId: peerId, namespace: Namespaces.Message.cloud, id: id)
        try await ChannelCommands.run("\(unpin ? "unpinning" : "pinning") message \(id)") {
            () async throws(PeerActionError) in
            if unpin {
                try await account.unpin(messageId, oneSide: oneSide)
            } else {
                try await account.pin(messageId, silent: silent, oneSide: oneSide)
            }
        }
    }

    /// Creates an invite link to `peerId`'s chat.
    public static func exportLink(
        _ account: Account, _ peerId: PeerId, expire: Int32?, usageLimit: Int32?, requestNeeded: Bool
    ) async throws(ClientError) -> InviteLinkSummary {
        let link = try await ChannelCommands.run("making an invite link to \(PeerResolver.handle(peerId))") {
            () async throws(PeerActionError) -> InviteLink in
            try await account.exportInviteLink(
                peerId, expire: expire, usageLimit: usageLimit, requestNeeded: requestNeeded)
        }
        return InviteLinkSummary(link, chat: peerId)
    }

    /// The account's links to `peerId`'s chat (`revoked`: the revoked ones); `all`: every admin's (its creator only).
    public static func links(
        _ account: Account, _ peerId: PeerId, revoked: Bool, all: Bool = false
    ) async throws(ClientError) -> [InviteLinkSummary] {
        let links = try await ChannelCommands.run("listing the invite links to \(PeerResolver.handle(peerId))") {
            () async throws(PeerActionError) -> [InviteLink] in
            all
                ? try await account.allInviteLinks(peerId, revoked: revoked)
                : try await account.inviteLinks(peerId, revoked: revoked)
        }
        return links.map { InviteLinkSummary($0, chat: peerId) }
    }

    /// Revokes `link` of `peerId`'s chat.
    public static func revokeLink(
        _ account: Account, _ peerId: PeerId, link: String
    ) async throws(ClientError) -> InviteLinkSummary {
        let revoked = try await ChannelCommands.run("revoking \(link)") {
            () async throws(PeerActionError) -> InviteLink in try await account.revokeInviteLink(peerId, link: link)
        }
        return InviteLinkSummary(revoked, chat: peerId)
    }

    /// Joins through an invite link.
    public static func join(_ account: Account, link: String) async throws(ClientError) -> InviteLinkJoinOutcome {
        try await ChannelCommands.run("joining through \(link)") {
            () async throws(PeerActionError) -> InviteLinkJoinOutcome in try await account.joinByInviteLink(link)
        }
    }

    /// Who waits to join `peerId`'s chat.
    public static func requests(_ account: Account, _ peerId: PeerId) async throws(ClientError) -> [JoinRequestSummary]
    {
        let requests = try await ChannelCommands.run("listing join requests of \(PeerResolver.handle(peerId))") {
            () async throws(PeerActionError) -> [JoinRequest] in try await account.joinRequests(peerId)
        }
        return requests.map { request in
            let user = try? account.postbox.readTransactionSync { tx in try tx.getPeer(request.user) }
            return JoinRequestSummary(
                user: PeerResolver.handle(request.user), name: PeerResolver.displayName(user),
                username: (user as? TelegramUser)?.username, date: request.date)
        }
    }

    /// Lets `user` in to `peerId`'s chat (or, not `approved`, turns them down).
    public static func approve(
        _ account: Account, _ peerId: PeerId, user: PeerId, approved: Bool
    ) async throws(ClientError) {
        try await ChannelCommands.run("answering the join request of \(PeerResolver.handle(user))") {
            () async throws(PeerActionError) in
            try await account.approveJoinRequest(peerId, user: user, approved: approved)
        }
    }

    /// Whether `text` names an invite link rather than a username or a stored chat: `t.me/+…`, `t.me/joinchat/…`,
    /// `tg://join?…`, or a bare `+HASH`.
    public static func isInviteLink(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.contains("t.me/+") || lower.contains("/joinchat/") || lower.hasPrefix("tg://join")
            || lower.hasPrefix("+") && !lower.dropFirst().allSatisfy(\.isNumber)
    }
}

/// One invite link as `tg link` prints it.
public struct InviteLinkSummary: Equatable, Sendable, Encodable {
    public var chat: String
    public var link: String
    /// Who made it, `user:ID`.
    public var admin: String
    public var revoked: Bool
    public var requestNeeded: Bool
    public var expireDate: Int32?
    public var usageLimit: Int32?
    public var usage: Int32
    public var requested: Int32

    public init(_ link: InviteLink, chat: PeerId) {
        self.chat = PeerResolver.handle(chat)
        self.link = link.link
        admin = PeerResolver.handle(link.adminId)
        revoked = link.isRevoked
        requestNeeded = link.requestNeeded
        expireDate = link.expireDate
        usageLimit = link.usageLimit
        usage = link.usage
        requested = link.requested
    }

    private enum CodingKeys: String, CodingKey {
        case chat, link, admin, revoked
        case requestNeeded = "request_needed"
        case expireDate = "expire_date"
        case usageLimit = "usage_limit"
        case usage, requested
    }

    /// Every key, `null` when it does not apply.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(chat, forKey: .chat)
        try container.encode(link, forKey: .link)
        try container.encode(admin, forKey: .admin)
        try container.encode(revoked, forKey: .revoked)
        try container.encode(requestNeeded, forKey: .requestNeeded)
        try container.encode(expireDate, forKey: .expireDate)
        try container.encode(usageLimit, forKey: .usageLimit)
        try container.encode(usage, forKey: .usage)
        try container.encode(requested, forKey: .requested)
    }

    /// `https://t.me/+HASH  channel:ID  (revoked) (asks an admin) (until …) (N/M used)`.
    public var line: String {
        var parts = [link, chat]
        if revoked { parts.append("revoked") }
        if requestNeeded { parts.append("asks an admin") }
        if let expireDate {
            parts.append(
                "until \(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(expireDate))))")
        }
        if let usageLimit { parts.append("\(usage)/\(usageLimit) used") }
        return parts.joined(separator: "  ")
    }
}

/// One join request as `tg requests` prints it.
public struct JoinRequestSummary: Equatable, Sendable, Encodable {
    /// `user:ID`.
    public var user: String
    public var name: String
    public var username: String?
    public var date: Int32

    private enum CodingKeys: String, CodingKey { case user, name, username, date }

    /// Every key, `null` when it does not apply.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
        try container.encode(name, forKey: .name)
        try container.encode(username, forKey: .username)
        try container.encode(date, forKey: .date)
    }

    /// `user:ID  Name (@name)`.
    public var line: String { "\(user)  \(name)" + (username.map { " (@\($0))" } ?? "") }
}
