import Foundation
public import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// A chat's invite link as the server describes it (`chatInviteExported`; core.telegram.org "Invite links and join
/// requests"; Telegram-iOS `ExportedInvitation`).
public struct InviteLink: Equatable, Sendable {
    /// The link, `https://t.me/+HASH`.
    public var link: String
    public var isRevoked: Bool
    public var isPermanent: Bool
    /// Joining through it asks an admin first (a join request).
    public var requestNeeded: Bool
    /// When it stops admitting anyone (unix time), if ever.
    public var expireDate: Int32?
    /// How many may join through it, if limited; how many did; how many asked and wait.
    public var usageLimit: Int32?
    public var usage: Int32
    public var requested: Int32
    public var adminId: PeerId
    public var title: String?

    /// The link an `ExportedChatInvite` describes; `nil` for `chatInvitePublicJoinRequests`.
    init?(_ invite: Api.ExportedChatInvite) {
        guard case .chatInviteExported(let value) = invite else { return nil }
        link = value.link
        isRevoked = value.revoked
        isPermanent = value.permanent
        requestNeeded = value.requestNeeded
        expireDate = value.expireDate
        usageLimit = value.usageLimit
        usage = value.usage ?? 0
        requested = value.requested ?? 0
        adminId = .user(value.adminId)
        title = value.title
    }

    /// The hash of a link written `https://t.me/+HASH`, `t.me/joinchat/HASH`, `tg://join?invite=HASH` or as the bare
    /// hash; `nil` when nothing is left to name.
    public static func hash(of link: String) -> String? {
        var text = link.trimmingCharacters(in: .whitespacesAndNewlines)
        for prefix in ["tg://join?invite=", "https://", "http://"] where text.hasPrefix(prefix) {
            text.removeFirst(prefix.count)
        }
        for prefix in ["t.me/", "telegram.me/", "telegram.dog/"] where text.lowercased().hasPrefix(prefix) {
            text.removeFirst(prefix.count)
        }
        if text.hasPrefix("+") {
            text.removeFirst()
        } else if text.hasPrefix("joinchat/") {
            text.removeFirst("joinchat/".count)
        }
        if let end = text.firstIndex(where: { $0 == "?" || $0 == "/" || $0 == "#" }) { text = String(text[..<end]) }
        return text.isEmpty ? nil : text
    }
}

/// What joining through an invite link came to.
public enum InviteLinkJoinOutcome: Equatable, Sendable {
    /// Joined the chat.
    case joined(PeerId)
    /// Already a member (`chatInviteAlready`): nothing was done.
    case alreadyMember(PeerId)
    /// The link asks an admin first: the request was sent (`INVITE_REQUEST_SENT`) to join the chat with this title.
    case requestSent(title: String)
}

/// One person waiting for an admin to let them in (`chatInviteImporter` with `requested`).
public struct JoinRequest: Equatable, Sendable {
    public var user: PeerId
    public var date: Int32
    public var about: String?
}

/// Invite links and join requests (core.telegram.org methods `messages.exportChatInvite`, `messages.checkChatInvite`,
/// `messages.importChatInvite`, `messages.editExportedChatInvite`, `messages.getChatInviteImporters`,
/// `messages.hideChatJoinRequest`; Telegram-iOS `TelegramCore/Sources/TelegramEngine/Peers/JoinLink.swift` and
/// `InvitationLinks.swift`).
extension Account {
    /// Creates a new invite link to `peerId`'s group or channel: expiring at `expire` (unix time), admitting at most
    /// `usageLimit`, or asking an admin for each join (`requestNeeded`).
    public func exportInviteLink(
        _ peerId: PeerId, expire: Int32? = nil, usageLimit: Int32? = nil, requestNeeded: Bool = false,
        title: String? = nil
    ) async throws(PeerActionError) -> InviteLink {
        let peer = try storedInputPeer(peerId)
        let answer = try await peerActionRequest(
            Api.functions.messages.exportChatInvite(
                requestNeeded: requestNeeded, peer: peer, expireDate: expire, usageLimit: usageLimit, title: title))
        guard let link = InviteLink(answer) else { throw .storage("messages.exportChatInvite answered \(answer)") }
        return link
    }

    /// The invite links this account made to `peerId`'s chat, newest first, at most `limit`
    /// (`messages.getExportedChatInvites` with `admin_id` self); `revoked`: the revoked ones instead.
    public func inviteLinks(
        _ peerId: PeerId, revoked: Bool = false, limit: Int32 = 100
    ) async throws(PeerActionError) -> [InviteLink] {
        let peer = try storedInputPeer(peerId)
        let answer = try await peerActionRequest(
            Api.functions.messages.getExportedChatInvites(
                revoked: revoked, peer: peer, adminId: .inputUserSelf, limit: limit))
        guard case .exportedChatInvites(let value) = answer else { return [] }
        return value.invites.compactMap(InviteLink.init)
    }

    /// Every invite link to `peerId`'s chat, whoever made it, at most `limit` of each admin's, grouped by admin (the
    /// most links first, as the server lists them), each admin's newest first: what the chat's creator may see
    /// (`messages.getAdminsWithInvites`, then `messages.getExportedChatInvites` for each admin with live links — or,
    /// `revoked`, with revoked ones — as Telegram-iOS's `InviteLinksListController` lists other admins' links).
    public func allInviteLinks(
        _ peerId: PeerId, revoked: Bool = false, limit: Int32 = 100
    ) async throws(PeerActionError) -> [InviteLink] {
        let peer = try storedInputPeer(peerId)
        let answer = try await peerActionRequest(Api.functions.messages.getAdminsWithInvites(peer: peer))
        guard case .chatAdminsWithInvites(let value) = answer else { return [] }
        var hashes: [Int64: Int64] = [:]
        for case .user(let user) in value.users { hashes[user.id] = user.accessHash }
        var links: [InviteLink] = []
        for case .chatAdminWithInvites(let admin) in value.admins
        where (revoked ? admin.revokedInvitesCount : admin.invitesCount) > 0 {
            let input: Api.InputUser =
                admin.adminId == self.peerId.id.rawValue
                ? .inputUserSelf : .inputUser(.init(userId: admin.adminId, accessHash: hashes[admin.adminId] ?? 0))
            let page = try await peerActionRequest(
                Api.functions.messages.getExportedChatInvites(
                    revoked: revoked, peer: peer, adminId: input, limit: limit))
            guard case .exportedChatInvites(let invites) = page else { continue }
            links += invites.invites.compactMap(InviteLink.init)
        }
        return links
    }

    /// Revokes `link` of `peerId`'s chat; returns it as revoked.
    public func revokeInviteLink(_ peerId: PeerId, link: String) async throws(PeerActionError) -> InviteLink {
        let peer = try storedInputPeer(peerId)
        let answer = try await peerActionRequest(
            Api.functions.messages.editExportedChatInvite(revoked: true, peer: peer, link: link))
        let invite: Api.ExportedChatInvite
        switch answer {
        case .exportedChatInvite(let value): invite = value.invite
        case .exportedChatInviteReplaced(let value): invite = value.invite
        }
        guard let revoked = InviteLink(invite) else { throw .storage("editExportedChatInvite answered \(answer)") }
        return revoked
    }

    /// Joins the chat an invite link names: `messages.checkChatInvite` (a member is told so and nothing more is
    /// done), then `messages.importChatInvite`, whose updates are applied like any action's. A link that asks an
    /// admin first answers `.requestSent`. A malformed link is `.notFound`.
    public func joinByInviteLink(_ link: String) async throws(PeerActionError) -> InviteLinkJoinOutcome {
        guard let hash = InviteLink.hash(of: link) else { throw .notFound("\(link) is not an invite link") }
        let invite = try await peerActionRequest(Api.functions.messages.checkChatInvite(hash: hash))
        let title: String
        switch invite {
        case .chatInviteAlready(let value):
            let chat = Api.Updates.updates(.init(updates: [], users: [], chats: [value.chat], date: 0, seq: 0))
            try applyActionUpdates(chat)
            guard let peerId = Self.chatIds(in: chat).first else {
                throw .storage("messages.checkChatInvite named an unknown chat")
            }
            return .alreadyMember(peerId)
        case .chatInvite(let value):
            title = value.title
        case .chatInvitePeek(let value):
            title = TelegramChannel(value.chat)?.title ?? TelegramGroup(value.chat)?.title ?? ""
        }
        let result: Api.messages.ChatInviteJoinResult
        do {
            result = try await peerActionRequest(Api.functions.messages.importChatInvite(hash: hash))
        } catch .server("INVITE_REQUEST_SENT") {
            return .requestSent(title: title)
        }
        guard case .chatInviteJoinResultOk(let value) = result else {
            throw .unsupported("messages.importChatInvite answered \(result)")
        }
        try applyActionUpdates(value.updates)
        guard let peerId = Self.chatIds(in: value.updates).first else {
            throw .storage("messages.importChatInvite named no chat")
        }
        try? await refreshDialog(peerId)
        return .joined(peerId)
    }

    /// The people waiting to join `peerId`'s chat through links that ask first, newest first (their users stored).
    public func joinRequests(_ peerId: PeerId, limit: Int32 = 100) async throws(PeerActionError) -> [JoinRequest] {
        let peer = try storedInputPeer(peerId)
        let answer = try await peerActionRequest(
            Api.functions.messages.getChatInviteImporters(
                requested: true, peer: peer, offsetDate: 0, offsetUser: .inputUserEmpty, limit: limit))
        guard case .chatInviteImporters(let value) = answer else { return [] }
        try applyActionUpdates(.updates(.init(updates: [], users: value.users, chats: [], date: 0, seq: 0)))
        return value.importers.map { importer in
            let value: Api.ChatInviteImporter.Cons_chatInviteImporter
            switch importer {
            case .chatInviteImporter(let fields): value = fields
            }
            return JoinRequest(user: .user(value.userId), date: value.date, about: value.about)
        }
    }

    /// Lets `user` in to `peerId`'s chat (`approved`) or turns the request down (`messages.hideChatJoinRequest`).
    public func approveJoinRequest(_ peerId: PeerId, user: PeerId, approved: Bool = true) async throws(PeerActionError)
    {
        let peer = try storedInputPeer(peerId)
        let input = try inputUser(user)
        try applyActionUpdates(
            try await peerActionRequest(
                Api.functions.messages.hideChatJoinRequest(approved: approved, peer: peer, userId: input)))
    }
}
