import ArgumentParser
import CommandLineOutput
import TelegramClient

struct Secret: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start a secret chat with a user and wait until they accept it; or accept the ones others asked for.",
        discussion: """
            End-to-end encrypted (core.telegram.org "End-to-End Encryption, Secret Chats"). The other user's client \
            accepts while 'tg watch' runs, as Telegram's apps do, or later with 'tg secret --accept'; \
            this waits for it at most --timeout seconds (exit 4). Prints the chat as secret:ID, which send, history \
            and secret-key take; with --json {"chat", "with", "withName"}. --accept prints the chats it accepted \
            (--json: {"accepted": ["secret:ID", …]}).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The user: @username, +phone, user:ID or their name.") var peer: String?
    @Flag(help: "Accept the secret chats other users asked this account for.") var accept = false

    func validate() throws {
        if accept == (peer != nil) {
            throw ValidationError("give either a user to start a secret chat with or --accept")
        }
    }

    func run() async throws {
        if accept {
            let accepted = try await global.withOnlineAccount { _, account in
                await SecretChatting.acceptIncoming(account: account).map { "secret:\($0)" }
            }
            if output.json { return try Output.json(["accepted": accepted]) }
            print(accepted.isEmpty ? "no secret chat to accept" : "accepted " + accepted.joined(separator: ", "))
            return
        }
        let started = try await global.withOnlineAccount { _, account in
            let userId = try await resolvePeer(peer ?? "", account)
            let chatId = try await SecretChatting.start(with: userId, account: account, timeout: global.timeout)
            return StartedSecretChat(
                chat: "secret:\(chatId)", with: PeerResolver.handle(userId), withName: chatName(userId, account))
        }
        if output.json { return try Output.json(started) }
        print("\(started.chat) with \(started.withName) (\(started.with)): accepted")
    }
}

/// `tg secret --json`.
struct StartedSecretChat: Encodable {
    let chat: String
    let with: String
    let withName: String
}

struct SecretKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secret-key",
        abstract: "Show a secret chat's key visualization: emoji, identicon and hex — the same on both sides.",
        discussion: """
            Compare it with the other user's (in person, or over a channel you trust): when both are the same, \
            nobody sits in the middle. The identicon is Telegram's 12 × 12 picture in four blues, drawn with block \
            characters (' ', '░', '█', '▓'). --json: {"chat", "fingerprint" (hex), "emoji", "hex", "identicon" (rows)}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The secret chat, secret:ID as 'tg secret' printed it.") var chat: String

    func run() async throws {
        guard case .secretChat(let chatId)? = PeerReference(chat) else {
            throw ToolError.badInput(
                "'\(chat)' is not a secret chat", remedy: "give secret:ID as 'tg secret' printed it")
        }
        let key = try await global.withSession { session in
            try SecretChatting.key(chatId: chatId, account: try session.account(named: global.account))
        }
        if output.json { return try Output.json(key) }
        for line in key.lines { print(line) }
    }
}
