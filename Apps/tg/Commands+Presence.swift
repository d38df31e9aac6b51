import ArgumentParser
import TelegramClient
import TelegramCore

/// `tg privacy`: who sees what of this account (core.telegram.org "Privacy").
struct Privacy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Who sees what of this account.",
        subcommands: [LastSeen.self, Forwards.self])

    struct LastSeen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "last-seen",
            abstract: "Who sees your exact last seen time: everybody, contacts or nobody (without a value: shows it).",
            discussion: """
                account.setPrivacy / account.getPrivacy with inputPrivacyKeyStatusTimestamp. Those who may not see it \
                see "last seen recently" (or within a week, a month) — and, as on Telegram, you no longer see theirs. \
                Prints the setting, or with --json {"lastSeen": "contacts"}.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "everybody, contacts or nobody; leave out to show the current setting.")
        var value: String?

        func validate() throws {
            if let value, LastSeenPrivacy(rawValue: value) == nil {
                throw ValidationError("last-seen takes everybody, contacts or nobody, not '\(value)'")
            }
        }

        func run() async throws {
            let wanted = value.flatMap(LastSeenPrivacy.init(rawValue:))
            let setting = try await global.withOnlineAccount { _, account in
                try await PresenceCommands.lastSeen(account, set: wanted)
            }
            if output.json { return try Output.json(["lastSeen": setting.rawValue]) }
            print("last seen: \(setting.rawValue)")
        }
    }

    struct Forwards: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Whose forwards of your messages link to your account: everybody, contacts or nobody.",
            discussion: """
                account.setPrivacy / account.getPrivacy with inputPrivacyKeyForwards. A forward by someone not allowed \
                shows only your name ("Forwarded from NAME", fwd_from.from_name), with no link to your account. \
                Prints the setting, or with --json {"forwards": "nobody"}.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "everybody, contacts or nobody; leave out to show the current setting.")
        var value: String?

        func validate() throws {
            if let value, LastSeenPrivacy(rawValue: value) == nil {
                throw ValidationError("forwards takes everybody, contacts or nobody, not '\(value)'")
            }
        }

        func run() async throws {
            let wanted = value.flatMap(LastSeenPrivacy.init(rawValue:))
            let setting = try await global.withOnlineAccount { _, account in
                try await PresenceCommands.forwards(account, set: wanted)
            }
            if output.json { return try Output.json(["forwards": setting.rawValue]) }
            print("forwards: \(setting.rawValue)")
        }
    }
}

/// `tg typing PEER`: tells the chat we are typing (what the interactive client sends while its compose line has text).
struct Typing: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tell a chat you are typing (the other side shows 'typing…' for 6 s), or --cancel to stop.",
        discussion: """
            messages.setTyping with sendMessageTypingAction (sendMessageCancelAction with --cancel); the other side \
            gets updateUserTyping ('tg watch' prints it). Prints 'typing in NAME', or with --json {"chat", "typing"}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: @username, +phone, user:ID, chat:ID, channel:ID or its name.") var peer: String
    @Flag(help: "Stop: the other side stops showing 'typing…' at once.") var cancel = false

    struct Result: Encodable {
        var chat: String
        var typing: Bool
    }

    func run() async throws {
        let (chat, name) = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            try await PresenceCommands.typing(account, peerId, stopped: cancel)
            return (PeerResolver.handle(peerId), chatName(peerId, account))
        }
        if output.json { return try Output.json(Result(chat: chat, typing: !cancel)) }
        print(cancel ? "stopped typing in \(name)" : "typing in \(name)")
    }
}
