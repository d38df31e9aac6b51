import ArgumentParser
import TelegramClient

struct Username: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take a username (others find you as @NAME), or remove it with \"\".",
        discussion: """
            5–32 letters, digits and underscores, a letter first, no underscore at the end (account.updateUsername). \
            Prints @NAME, or with --json {"username": NAME} (null once removed). A name someone else has is refused \
            (exit 6).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The username, with or without '@'; \"\" removes it.") var name: String

    func run() async throws {
        let stored = try await global.withOnlineAccount { _, account in
            try await ProfileCommands.setUsername(account, name)
        }
        if output.json { return try Output.json(["username": stored]) }
        print(stored.map { "@" + $0 } ?? "no username")
    }
}
