import ArgumentParser
import TelegramClient

/// `tg block PEER`: the user can no longer write to you or see your status and photo.
struct Block: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Block a user: they can no longer write to you, nor see when you are online or your photo.",
        discussion: """
            contacts.block. Their messages are refused by the server (USER_IS_BLOCKED); yours to them too until you \
            unblock (YOU_BLOCKED_USER). Prints 'blocked NAME', or with --json {"user": "user:ID", "blocked": true}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The user: @username, +phone, user:ID or a chat's name.") var peer: String

    func run() async throws {
        try await BlockToggle.run(global: global, json: output.json, peer: peer, blocked: true)
    }
}

/// `tg unblock PEER`.
struct Unblock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Unblock a user.",
        discussion: """
            contacts.unblock. Prints 'unblocked NAME', or with --json {"user": "user:ID", "blocked": false}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The user: @username, +phone, user:ID or a chat's name.") var peer: String

    func run() async throws {
        try await BlockToggle.run(global: global, json: output.json, peer: peer, blocked: false)
    }
}

enum BlockToggle {
    struct Result: Encodable {
        var user: String
        var blocked: Bool
    }

    static func run(global: GlobalOptions, json: Bool, peer: String, blocked: Bool) async throws {
        let (handle, name) = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            try await BlockCommands.setBlocked(account, peerId, blocked)
            return (PeerResolver.handle(peerId), chatName(peerId, account))
        }
        if json { return try Output.json(Result(user: handle, blocked: blocked)) }
        print("\(blocked ? "blocked" : "unblocked") \(name)")
    }
}

/// `tg blocked`: whom you blocked.
struct Blocked: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the users you blocked, newest first.",
        discussion: """
            contacts.getBlocked, page by page. Prints 'user:ID  Name', or with --json [{"user", "name", "date"}].
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let rows = try await global.withOnlineAccount { _, account in try await BlockCommands.list(account) }
        if output.json { return try Output.json(rows) }
        if rows.isEmpty { print("nobody blocked") }
        for row in rows { print("\(row.user)  \(row.name)") }
    }
}
