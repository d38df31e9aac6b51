import ArgumentParser
import Foundation
import Postbox
import TelegramClient
import TelegramCore

/// Saving a chat's draft (TelegramClient's `DraftCommands` over TelegramCore's `Account.saveDraft`).
struct Draft: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Save a draft in a chat (or clear it with --clear).",
        discussion: """
            messages.saveDraft: the text (markdown, as 'tg send' takes it) waits in the chat on every device of the \
            account ('tg chats' shows 'Draft: …', other devices get updateDraftMessage); sending to the chat clears \
            it, as Telegram does. At most 4,096 characters (MESSAGE_TOO_LONG, exit 6). Prints 'draft saved in PEER', \
            or with --json {"chat", "draft"} (null once cleared).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: @username, +phone, user:ID, chat:ID, channel:ID or its name.") var peer: String
    @Argument(help: "The draft's text (markdown).") var text: String?
    @Option(help: "The message it replies to (its id, as 'tg history' shows it).") var replyTo: Int32?
    @Flag(help: "Clear the chat's draft.") var clear = false

    func validate() throws {
        if clear && (text != nil || replyTo != nil) { throw ValidationError("--clear takes no text or --reply-to") }
        if !clear && (text ?? "").isEmpty { throw ValidationError("give the draft's text, or --clear") }
    }

    func run() async throws {
        let markdown = clear ? "" : text ?? ""
        let chat = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            try await DraftCommands.save(account, peerId, markdown: markdown, replyTo: replyTo)
            return PeerResolver.handle(peerId)
        }
        if output.json { return try Output.json(DraftOutput(chat: chat, draft: clear ? nil : markdown)) }
        print(clear ? "draft cleared in \(chat)" : "draft saved in \(chat)")
    }

    /// `tg draft --json`.
    struct DraftOutput: Encodable {
        var chat: String
        var draft: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(chat, forKey: .chat)
            try container.encode(draft, forKey: .draft)
        }

        private enum CodingKeys: String, CodingKey { case chat, draft }
    }
}
