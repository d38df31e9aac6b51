import ArgumentParser
import CommandLineOutput
import Foundation
import MediaResources
import Postbox
import TelegramClient
import TelegramCore

/// Groups and channels: create, join, leave, invite, members, admins, bans, rename, photo (TelegramClient's
/// `ChannelCommands` over TelegramCore's actions).
struct CreateChannel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-channel",
        abstract: "Create a broadcast channel (you post, members read), optionally public as @NAME.",
        discussion: """
            channels.createChannel, then channels.updateUsername with --username (5–32 letters, digits and \
            underscores, a letter first). Prints 'channel:ID  Title (@name)  channel', or with --json {"chat", \
            "title", "username", "kind"}. A taken username is refused (exit 6) after the channel was made.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The channel's title.") var title: String
    @Option(help: "The channel's description (at most 255 characters).") var about = ""
    @Option(help: "A public username, so others can 'tg join @NAME'.") var username: String?

    func run() async throws {
        let summary = try await global.withOnlineAccount { _, account in
            let peerId = try await ChannelCommands.createChannel(
                account, title: title, about: about, username: username)
            return GroupSummary(peerId, account: account)
        }
        if output.json { return try Output.json(summary) }
        print(summary.line)
    }
}

struct CreateGroup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-group",
        abstract: "Create a group with these users: a basic group, or a supergroup with --super.",
        discussion: """
            messages.createChat (a basic group needs at least one other member), or with --super \
            channels.createChannel with megagroup and channels.inviteToChannel. Prints the group as create-channel \
            does.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The group's title.") var title: String
    @Argument(help: "The members to add: @username, +phone, user:ID or a name.") var users: [String] = []
    @Flag(name: .customLong("super"), help: "Make a supergroup (up to 200,000 members, admins, bans).")
    var supergroup = false

    func validate() throws {
        if users.isEmpty && !supergroup { throw ValidationError("a basic group needs at least one other member") }
    }

    func run() async throws {
        let summary = try await global.withOnlineAccount { _, account in
            var members: [PeerId] = []
            for user in users { members.append(try await resolvePeer(user, account)) }
            let peerId = try await ChannelCommands.createGroup(
                account, title: title, users: members, supergroup: supergroup)
            return GroupSummary(peerId, account: account)
        }
        if output.json { return try Output.json(summary) }
        print(summary.line)
    }
}

struct Join: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Join a channel or group through an invite link, or a public one by its username (or as channel:ID).",
        discussion: """
            contacts.resolveUsername, then channels.joinChannel. A private channel, or one that banned you, is \
            refused (CHANNEL_PRIVATE, exit 6); an unknown name is exit 5 (tg-server hides a channel's name from those \
            it banned). Prints the channel as create-channel does. An invite link (https://t.me/+HASH, \
            t.me/joinchat/HASH): messages.checkChatInvite, then messages.importChatInvite; a link that asks an admin \
            sends a join request and prints so; --json {"status": "joined"|"member"|"requested", "chat", "title", \
            "kind"} (a request has no chat yet). A revoked, expired or used-up link is INVITE_HASH_EXPIRED (exit 6).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "An invite link, the channel's @username, or channel:ID of a stored one.") var name: String

    func run() async throws {
        if PinLinkCommands.isInviteLink(name) {
            return try await JoinByLink.run(name, global: global, json: output.json)
        }
        let summary = try await global.withOnlineAccount { _, account in
            if case .channel? = PeerReference(name) {
                let peerId = try await resolvePeer(name, account)
                try await ChannelCommands.join(account, peerId)
                return GroupSummary(peerId, account: account)
            }
            let peerId = try await ChannelCommands.join(account, username: name)
            return GroupSummary(peerId, account: account)
        }
        if output.json { return try Output.json(summary) }
        print(summary.line)
    }
}

struct Leave: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Leave a channel, supergroup or basic group.",
        discussion: """
            channels.leaveChannel, or messages.deleteChatUser for a basic group. Prints 'left channel:ID', or with \
            --json {"left": "channel:ID"}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: @username, chat:ID, channel:ID or its name.") var peer: String

    func run() async throws {
        let handle = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            try await ChannelCommands.leave(account, peerId)
            return PeerResolver.handle(peerId)
        }
        if output.json { return try Output.json(["left": handle]) }
        print("left \(handle)")
    }
}

struct Invite: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add users to a channel, supergroup or basic group.",
        discussion: """
            channels.inviteToChannel (in a broadcast channel admins with invite rights only: CHAT_ADMIN_REQUIRED), \
            or messages.addChatUser for a basic group. Prints the users added, or with --json {"chat", "invited"}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: @username, chat:ID, channel:ID or its name.") var peer: String
    @Argument(help: "The users: @username, +phone, user:ID or a name.") var users: [String]

    func validate() throws {
        if users.isEmpty { throw ValidationError("name at least one user to invite") }
    }

    func run() async throws {
        let (chat, invited) = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            var members: [PeerId] = []
            for user in users { members.append(try await resolvePeer(user, account)) }
            try await ChannelCommands.invite(account, members, to: peerId)
            return (PeerResolver.handle(peerId), members.map(PeerResolver.handle))
        }
        if output.json { return try Output.json(["chat": .string(chat), "invited": .strings(invited)] as JSONFields) }
        print("invited \(invited.joined(separator: " ")) to \(chat)")
    }
}

struct Members: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List a group's or channel's members: handle, name, role and an admin's rights.",
        discussion: """
            channels.getParticipants in pages of 200 (a broadcast channel's members are for its admins only: \
            CHAT_ADMIN_REQUIRED), or messages.getFullChat for a basic group. --json prints {"chat", "total", \
            "members": [{"peer", "name", "username", "role", "rights", "rank", "until"}]}; role is creator, admin, \
            member, restricted, banned or left.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: @username, chat:ID, channel:ID or its name.") var peer: String
    @Option(help: "At most this many members.") var limit = 200
    @Flag(help: "Only the creator and the admins.") var admins = false

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        let (chat, listed) = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let listed = try await ChannelCommands.members(account, of: peerId, limit: limit, admins: admins)
            return (PeerResolver.handle(peerId), listed)
        }
        if output.json {
            return try Output.json(MembersOutput(chat: chat, total: listed.total, members: listed.members))
        }
        for member in listed.members { print(member.line) }
        print("\(listed.members.count) of \(listed.total) members")
    }
}

/// `tg members --json`.
private struct MembersOutput: Encodable {
    var chat: String
    var total: Int
    var members: [MemberSummary]
}

struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a member of a channel or supergroup an admin, or take their admin rights away.",
        discussion: """
            channels.editAdmin. --rights is a comma-separated list of: \
            \(AdminRightNames.all.map { $0.names[0] }.joined(separator: ", ")) (Telegram's names, e.g. post_messages, \
            work too); without it an admin gets \(Admin.defaultRights). You can only give rights you have \
            (RIGHT_FORBIDDEN) and only to members (USER_NOT_PARTICIPANT). Prints the rights, or with --json {"chat", \
            "user", "rights"}.
            """)

    static let defaultRights = "info,post,edit,delete,ban,invite,pin"

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The channel or supergroup: @username, channel:ID or its name.") var peer: String
    @Argument(help: "The member: @username, +phone, user:ID or a name.") var user: String
    @Option(help: "The rights, comma-separated.") var rights: String?
    @Option(help: "The admin's title shown beside their name (at most 16 characters).") var rank: String?
    @Flag(help: "Take the admin rights away.") var remove = false

    func validate() throws {
        if remove && rights != nil { throw ValidationError("give either --rights or --remove") }
        if case .failure(let unknown) = AdminRightNames.parse(rights ?? Self.defaultRights) {
            throw ValidationError(
                "unknown right '\(unknown.name)' — use \(AdminRightNames.all.map { $0.names[0] }.joined(separator: ","))"
            )
        }
    }

    func run() async throws {
        let flags = remove ? [] : ((try? AdminRightNames.parse(rights ?? Self.defaultRights).get()) ?? [])
        let (chat, member) = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let userId = try await resolvePeer(user, account)
            try await ChannelCommands.setAdmin(account, userId, in: peerId, rights: flags, rank: rank)
            return (PeerResolver.handle(peerId), PeerResolver.handle(userId))
        }
        let names = AdminRightNames.names(flags)
        if output.json {
            return try Output.json(
                ["chat": .string(chat), "user": .string(member), "rights": .strings(names)] as JSONFields)
        }
        print(
            names.isEmpty
                ? "\(member) is no longer an admin of \(chat)"
                : "\(member) is an admin of \(chat): \(names.joined(separator: ","))")
    }
}

struct Ban: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ban a member from a channel or supergroup (or, with --kick, just remove them).",
        discussion: """
            channels.editBanned with view_messages: they are removed and cannot come back until --until (a duration \
            such as 30m, 12h, 7d, or a Unix time; Telegram counts under 30 s or over 366 days as for ever; default \
            for ever). --kick lifts the ban at once, so they may join again; in a basic group it is \
            messages.deleteChatUser. Admins cannot be banned (USER_ADMIN_INVALID); only admins with ban rights may \
            ban (CHAT_ADMIN_REQUIRED). Prints what was done, or with --json {"chat", "user", "banned", "until"}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: @username, chat:ID, channel:ID or its name.") var peer: String
    @Argument(help: "The member: @username, +phone, user:ID or a name.") var user: String
    @Option(help: "Until when: 30m, 12h, 7d or a Unix time (default: for ever).") var until: String?
    @Flag(help: "Remove them without keeping them out.") var kick = false

    private var now: Int32 { Int32(Date().timeIntervalSince1970) }

    func validate() throws {
        if kick && until != nil { throw ValidationError("--kick removes at once; --until is for a ban") }
        if let until, BanUntil.parse(until, now: now) == nil {
            throw ValidationError("--until takes a duration (90s, 30m, 12h, 7d) or a Unix time, not '\(until)'")
        }
    }

    func run() async throws {
        let untilDate = until.flatMap { BanUntil.parse($0, now: now) } ?? 0
        let (chat, member) = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let userId = try await resolvePeer(user, account)
            try await ChannelCommands.ban(account, userId, in: peerId, untilDate: untilDate, kick: kick)
            return (PeerResolver.handle(peerId), PeerResolver.handle(userId))
        }
        if output.json {
            return try Output.json(
                ["chat": .string(chat), "user": .string(member), "banned": .bool(!kick), "until": .int(untilDate)]
                    as JSONFields)
        }
        if kick {
            print("removed \(member) from \(chat)")
        } else {
            print("banned \(member) from \(chat)" + (untilDate == 0 ? "" : " until \(untilDate)"))
        }
    }
}

struct Rename: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rename a channel, supergroup or basic group.",
        discussion: """
            channels.editTitle (admins with the info right: CHAT_ADMIN_REQUIRED) or messages.editChatTitle; the \
            members see a service message. Prints the chat as create-channel does.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: @username, chat:ID, channel:ID or its name.") var peer: String
    @Argument(help: "The new title.") var title: String

    func run() async throws {
        let summary = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            try await ChannelCommands.rename(account, peerId, title: title)
            return GroupSummary(peerId, account: account)
        }
        if output.json { return try Output.json(summary) }
        print(summary.line)
    }
}

struct ChatPhoto: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat-photo",
        abstract: "Set or remove the photo of a channel, supergroup or basic group.",
        discussion: """
            The picture (JPEG, PNG or WebP) is prepared as a photo is for sending (at most 1280 px, JPEG), uploaded, \
            and named in channels.editPhoto (admins with the info right: CHAT_ADMIN_REQUIRED) or \
            messages.editChatPhoto; the members see a service message. Prints the chat as create-channel does.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: @username, chat:ID, channel:ID or its name.") var peer: String
    @Argument(help: "The picture; leave it out with --remove.") var picture: String?
    @Flag(help: "Remove the chat's photo.") var remove = false

    func validate() throws {
        guard remove == (picture == nil) else {
            throw ValidationError(remove ? "give a picture or --remove, not both" : "give a picture, or --remove")
        }
    }

    func run() async throws {
        let jpeg: [UInt8]?
        if let picture {
            do { jpeg = try OutgoingPhoto.prepare(path: picture).jpeg } catch {
                throw ToolError.badInput("\(picture): \(error)", remedy: "give a JPEG, PNG or WebP picture")
            }
        } else {
            jpeg = nil
        }
        let summary = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            try await ChannelCommands.setPhoto(account, peerId, jpeg: jpeg)
            return GroupSummary(peerId, account: account)
        }
        if output.json { return try Output.json(summary) }
        print(summary.line)
    }
}

/// A JSON object of a few mixed fields.
typealias JSONFields = [String: JSONField]

/// One field of a `JSONFields` object.
enum JSONField: Encodable {
    case string(String)
    case strings([String])
    case bool(Bool)
    case int(Int32)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .strings(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        }
    }
}
