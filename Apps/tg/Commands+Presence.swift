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

        func validate() throws { try PrivacySetting.validate(value, command: "last-seen") }

        func run() async throws {
            try await PrivacySetting.run(value, global: global, output: output, key: "lastSeen", label: "last seen") {
                try await PresenceCommands.lastSeen($0, set: $1)
            }
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

        func validate() throws { try PrivacySetting.validate(value, command: "forwards") }

        func run() async throws {
            try await PrivacySetting.run(value, global: global, output: output, key: "forwards", label: "forwards") {
                try await PresenceCommands.forwards($0, set: $1)
            }
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

/// What `tg privacy last-seen` and `tg privacy forwards` share: the three values, and showing or setting one.
enum PrivacySetting {
    /// Refuses a value other than everybody, contacts or nobody.
    static func validate(_ value: String?, command: String) throws {
        if let value, LastSeenPrivacy(rawValue: value) == nil {
            throw ValidationError("\(command) takes everybody, contacts or nobody, not '\(value)'")
        }
    }

    /// Sets `value` (or only reads the setting when it is nil) through `change`, then prints what the server holds:
    /// "`label`: value", or `{"key": "value"}` with `--json`.
    static func run(
        _ value: String?, global: GlobalOptions, output: OutputOptions, key: String, label: String,
        _ change: (Account, LastSeenPrivacy?) async throws -> LastSeenPrivacy
    ) async throws {
        let wanted = value.flatMap(LastSeenPrivacy.init(rawValue:))
        let setting = try await global.withOnlineAccount { _, account in try await change(account, wanted) }
        if output.json { return try Output.json([key: setting.rawValue]) }
        print("\(label): \(setting.rawValue)")
    }
}
