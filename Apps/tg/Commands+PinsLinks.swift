import ArgumentParser
import Foundation
import Postbox
import SyncCore
import TelegramClient
import TelegramCore

/// Pinned messages, invite links and join requests (TelegramClient's `PinLinkCommands` over TelegramCore's actions).
struct Pin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Pin a message in a chat (or unpin it with --unpin).",
        discussion: """
            messages.updatePinnedMessage: everyone in the chat sees it pinned and a service message says so \
            (--silent: without notifying them); in channels and supergroups admins with the right to pin only \
            (CHAT_ADMIN_REQUIRED, exit 6). --one-side, in a private chat: pinned (or unpinned) for you only, with no \
            service message; the other side's pins stay as they are (pm_oneside). Prints 'pinned MSG_ID in PEER', or with --json {"chat", "id", "pinned"}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: @username, +phone, user:ID, chat:ID, channel:ID or its name.") var peer: String
    @Argument(help: "The message's id (as 'tg history' shows it).") var id: Int32
    @Flag(help: "Pin without notifying the members.") var silent = false
    @Flag(help: "Unpin the message instead.") var unpin = false
    @Flag(help: "In a private chat: pin (or unpin) it for yourself only, with no service message.") var oneSide = false

    func run() async throws {
        let chat = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            if oneSide && peerId.namespace != Namespaces.Peer.cloudUser {
                throw ClientError.badInput(
                    "--one-side is for private chats only (a user), not \(PeerResolver.handle(peerId))")
            }
            try await PinLinkCommands.pin(account, peerId, id: id, silent: silent, unpin: unpin, oneSide: oneSide)
            return PeerResolver.handle(peerId)
        }
        if output.json {
            return try Output.json(["chat": .string(chat), "id": .int(id), "pinned": .bool(!unpin)] as JSONFields)
        }
        print("\(unpin ? "unpinned" : "pinned") \(id) in \(chat)")
    }
}

struct Link: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make an invite link to a group or channel (or revoke one with --revoke, or list yours with --list).",
        discussion: """
            messages.exportChatInvite: a new link https://t.me/+HASH, expiring after --expire (30m, 12h, 7d or a Unix \
            time), admitting at most --limit people, or with --request asking an admin to approve each join ('tg \
            requests'). --revoke LINK: messages.editExportedChatInvite with revoked. --list: the links you made to it \
            (messages.getExportedChatInvites), newest first; with --revoked, the revoked ones; with --all, every \
            admin's (messages.getAdminsWithInvites, then each admin's; the creator only), each line ending 'by \
            user:ID'. Admins with the right \
            to invite only (CHAT_ADMIN_REQUIRED, exit 6). Prints 'LINK  PEER  …' (a line per link with --list), or \
            with --json {"chat", "link", "admin", "revoked", "request_needed", "expire_date", "usage_limit", "usage", \
            "requested"} (an array with --list).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The group or channel: @username, chat:ID, channel:ID or its name.") var peer: String
    @Option(help: "Until when it admits: 30m, 12h, 7d or a Unix time (default: for ever).") var expire: String?
    @Option(help: "How many may join through it (1–99999).") var limit: Int32?
    @Flag(help: "Joining asks an admin first (a join request).") var request = false
    @Option(help: "Revoke this link instead of making one.") var revoke: String?
    @Flag(help: "List the links you made to it instead of making one.") var list = false
    @Flag(help: "With --list: the revoked links.") var revoked = false
    @Flag(help: "With --list: every admin's links, not only yours (the chat's creator only).") var all = false

    private var now: Int32 { Int32(Date().timeIntervalSince1970) }

    func validate() throws {
        if let expire, BanUntil.parse(expire, now: now) == nil {
            throw ValidationError("--expire takes a duration (90s, 30m, 12h, 7d) or a Unix time, not '\(expire)'")
        }
        if revoke != nil && (expire != nil || limit != nil || request) {
            throw ValidationError("--revoke takes no --expire, --limit or --request")
        }
        if request && limit != nil { throw ValidationError("a link that asks an admin has no --limit") }
        if list && (expire != nil || limit != nil || request || revoke != nil) {
            throw ValidationError("--list takes no --expire, --limit, --request or --revoke")
        }
        if revoked && !list { throw ValidationError("--revoked goes with --list") }
        if all && !list { throw ValidationError("--all goes with --list") }
    }

    func run() async throws {
        if list {
            let links = try await global.withOnlineAccount { _, account in
                try await PinLinkCommands.links(
                    account, try await resolvePeer(peer, account), revoked: revoked, all: all)
            }
            if output.json { return try Output.json(links) }
            for link in links { print(all ? "\(link.line)  by \(link.admin)" : link.line) }
            return
        }
        let expireDate = expire.flatMap { BanUntil.parse($0, now: now) }
        let summary = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            if let revoke { return try await PinLinkCommands.revokeLink(account, peerId, link: revoke) }
            return try await PinLinkCommands.exportLink(
                account, peerId, expire: expireDate, usageLimit: limit, requestNeeded: request)
        }
        if output.json { return try Output.json(summary) }
        print(summary.line)
    }
}

struct Requests: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List who asks to join a group or channel through a link (or approve or decline one).",
        discussion: """
            messages.getChatInviteImporters with requested; --approve USER or --decline USER: \
            messages.hideChatJoinRequest. Prints one 'user:ID  Name (@name)' a line, or with --json [{"user", "name", \
            "username", "date"}]; approving prints 'approved USER in PEER', or with --json {"chat", "user", \
            "approved"}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The group or channel: @username, chat:ID, channel:ID or its name.") var peer: String
    @Option(help: "Let this user in: @username, user:ID or a name.") var approve: String?
    @Option(help: "Turn this user's request down.") var decline: String?

    func validate() throws {
        if approve != nil && decline != nil { throw ValidationError("--approve or --decline, not both") }
    }

    func run() async throws {
        if let user = approve ?? decline {
            let (chat, member) = try await global.withOnlineAccount { _, account in
                let peerId = try await resolvePeer(peer, account)
                let userId = try await resolvePeer(user, account)
                try await PinLinkCommands.approve(account, peerId, user: userId, approved: approve != nil)
                return (PeerResolver.handle(peerId), PeerResolver.handle(userId))
            }
            if output.json {
                return try Output.json(
                    ["chat": .string(chat), "user": .string(member), "approved": .bool(approve != nil)] as JSONFields)
            }
            print("\(approve != nil ? "approved" : "declined") \(member) in \(chat)")
            return
        }
        let requests = try await global.withOnlineAccount { _, account in
            try await PinLinkCommands.requests(account, try await resolvePeer(peer, account))
        }
        if output.json { return try Output.json(requests) }
        for request in requests { print(request.line) }
    }
}

/// `tg join LINK`: joins through an invite link; the outcome as `join` prints a chat, or the request sent.
enum JoinByLink {
    static func run(_ link: String, global: GlobalOptions, json: Bool) async throws {
        let (outcome, summary) = try await global.withOnlineAccount {
            _, account -> (InviteLinkJoinOutcome, GroupSummary?) in
            let outcome = try await PinLinkCommands.join(account, link: link)
            switch outcome {
            case .joined(let peerId), .alreadyMember(let peerId):
                return (outcome, GroupSummary(peerId, account: account))
            case .requestSent: return (outcome, nil)
            }
        }
        switch outcome {
        case .joined, .alreadyMember:
            guard let summary else { return }
            let status = Self.status(outcome)
            if json {
                return try Output.json(
                    [
                        "status": .string(status), "chat": .string(summary.chat), "title": .string(summary.title),
                        "kind": .string(summary.kind),
                    ] as JSONFields)
            }
            print(status == "member" ? "already a member: \(summary.line)" : summary.line)
        case .requestSent(let title):
            if json { return try Output.json(["status": .string("requested"), "title": .string(title)] as JSONFields) }
            print("asked to join \(title); an admin must approve the request")
        }
    }

    static func status(_ outcome: InviteLinkJoinOutcome) -> String {
        switch outcome {
        case .joined: return "joined"
        case .alreadyMember: return "member"
        case .requestSent: return "requested"
        }
    }
}
