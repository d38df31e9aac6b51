import ArgumentParser
import TelegramClient
import TelegramCore

/// `tg gifs [list | save PEER ID | remove N]`: the account's saved GIFs (TelegramClient's `GifCommands` over
/// TelegramCore's `SavedGifs`); `tg send PEER --saved-gif N` sends one.
struct Gifs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, save or remove your saved GIFs.",
        subcommands: [List.self, Save.self, Remove.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List your saved GIFs, the latest saved first.",
            discussion: """
                messages.getSavedGifs. Prints 'N  gif W×H M:SS  (document ID)', N the number 'tg send --saved-gif N' \
                and 'tg gifs remove N' take; with --json [{"number", "id", "width", "height", "duration", "size"}].
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let rows = try await global.withOnlineAccount { _, account in
                GifCommands.summaries(try await GifCommands.list(account))
            }
            if output.json { return try Output.json(rows) }
            if rows.isEmpty { print("no saved GIFs") }
            for row in rows { print(row.line) }
        }
    }

    struct Save: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save the GIF of a message, at the front of your saved GIFs.",
            discussion: """
                messages.saveGif; the list keeps the latest 200 (the oldest go). Your other devices are told \
                (updateSavedGifs). A message without a GIF is exit 2. Prints the list as 'tg gifs' does.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The chat: @username, +phone, user:ID, chat:ID, channel:ID or its name.") var peer: String
        @Argument(help: "The message's id (as 'tg history' shows it).") var id: Int32

        func run() async throws {
            let rows = try await global.withOnlineAccount { _, account in
                let peerId = try await resolvePeer(peer, account)
                let file = try await GifCommands.gif(in: peerId, message: id, account: account, timeout: global.timeout)
                try await GifCommands.save(file, remove: false, account: account)
                return GifCommands.summaries(try await GifCommands.list(account))
            }
            if output.json { return try Output.json(rows) }
            for row in rows { print(row.line) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a saved GIF by its number in 'tg gifs'.",
            discussion: "messages.saveGif with unsave. Prints the list left as 'tg gifs' does.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The GIF's number in 'tg gifs' (from 1).") var number: Int

        func run() async throws {
            let rows = try await global.withOnlineAccount { _, account in
                let file = try await GifCommands.saved(number, account: account)
                try await GifCommands.save(file, remove: true, account: account)
                return GifCommands.summaries(try await GifCommands.list(account))
            }
            if output.json { return try Output.json(rows) }
            if rows.isEmpty { print("no saved GIFs") }
            for row in rows { print(row.line) }
        }
    }
}
