import ArgumentParser
import Postbox
import TelegramClient

/// `tg forward FROM ID… TO`: forwards messages (TelegramClient's `ForwardCommands`).
struct Forward: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Forward messages from one chat to another, with 'Forwarded from' or (--hide-author) as plain copies.",
        discussion: """
            messages.forwardMessages, one message at a time in order; the copies show 'Forwarded from NAME' (the \
            first author: a forward of a forward names who wrote it). --hide-author sends copies without it \
            (drop_author), and --hide-captions with it leaves photos and files without their captions \
            (drop_media_captions). Prints each copy as 'tg history' does, or with --json an array of messages with \
            "forwardedFrom" and "forwardedFromName".
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat to forward from, then the message ids (as 'tg history' shows them), then the chat to.")
    var arguments: [String]
    @Flag(help: "Send plain copies, without 'Forwarded from'.") var hideAuthor = false
    @Flag(help: "With --hide-author: leave media without their captions.") var hideCaptions = false

    func validate() throws {
        guard arguments.count >= 3 else { throw ValidationError("give FROM, at least one message id, and TO") }
        for id in arguments.dropFirst().dropLast() where Int32(id) == nil {
            throw ValidationError("'\(id)' is not a message id")
        }
        if hideCaptions && !hideAuthor { throw ValidationError("--hide-captions goes with --hide-author") }
    }

    func run() async throws {
        let ids = arguments.dropFirst().dropLast().compactMap { Int32($0) }
        let summaries = try await global.withOnlineAccount { _, account in
            let from = try await resolvePeer(arguments[0], account)
            let to = try await resolvePeer(arguments[arguments.count - 1], account)
            let sent = try await ForwardCommands.forward(
                account, from: from, ids: ids, to: to, hideAuthor: hideAuthor, hideCaptions: hideCaptions,
                timeout: global.timeout)
            let name = chatName(to, account)
            let names = ChatNames.of(sent, account: account)
            return sent.map { MessageSummary($0, chatName: name, names: names) }
        }
        if output.json { return try Output.json(summaries) }
        for summary in summaries { print("forwarded \(summary.line())") }
    }
}
