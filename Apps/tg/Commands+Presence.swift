import ArgumentParser
import TelegramClient
import TelegramCore

/// `tg privacy`: who sees what of this account (core.telegram.org "Privacy").
struct Privacy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Who sees what of this account.",
        subcommands: [LastSeen.self])

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
}
