import ArgumentParser
import Foundation
import Postbox
import TelegramClient
import TelegramCore

/// Reacting to a message (TelegramClient's `ReactionCommands` over TelegramCore's `Account.sendReaction`).
struct React: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "React to a message with an emoji (or take your reaction back with --remove).",
        discussion: """
            messages.sendReaction: everyone who sees the message gets the new counts (updateMessageReactions). \
            Standard emoji only, one per account, and only those the chat allows (REACTION_INVALID, exit 6); a new \
            emoji past the chat's limit of distinct reactions is REACTIONS_TOO_MANY (exit 6). Prints the message's \
            reactions, ours in brackets ('👍2 [❤1]'), or with --json {"chat", "id", "reactions": [{"emoji", \
            "count", "chosen"}]}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: @username, +phone, user:ID, chat:ID, channel:ID or its name.") var peer: String
    @Argument(help: "The message's id (as 'tg history' shows it).") var id: Int32
    @Argument(help: "The emoji, e.g. 👍 (leave it out with --remove).") var emoji: String?
    @Flag(help: "Play the big animation.") var big = false
    @Flag(help: "Take your reaction back.") var remove = false

    func validate() throws {
        if remove && emoji != nil { throw ValidationError("--remove takes no emoji") }
        if !remove && (emoji ?? "").isEmpty { throw ValidationError("give an emoji, or --remove") }
    }

    func run() async throws {
        let emoji = remove ? [] : [self.emoji ?? ""]
        let (chat, reactions) = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let reactions = try await ReactionCommands.react(account, peerId, id: id, emoji: emoji, big: big)
            return (PeerResolver.handle(peerId), reactions)
        }
        if output.json { return try Output.json(ReactOutput(chat: chat, id: id, reactions: reactions)) }
        print(reactions.isEmpty ? "no reactions on \(id) in \(chat)" : reactions.map(\.label).joined(separator: " "))
    }

    /// `tg react --json`.
    struct ReactOutput: Encodable {
        var chat: String
        var id: Int32
        var reactions: [ReactionSummary]
    }
}
