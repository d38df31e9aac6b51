import ArgumentParser
import Foundation
import TelegramClient
import TelegramCore

/// `tg watch-chats`: the account's chat list kept open (TelegramClient's `ChatListing.live`), printed at each change
/// with the monotonic time it arrived — what an app's chat-list screen shows, including other processes' writes.
struct WatchChats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch-chats",
        abstract:
            "Keep the chat list open and print it at each change, with the time it changed, until SIGINT, --count or --for.",
        discussion: """
            The first print is the list as opened; each later one is a change: the account's updates and other \
            processes' writes to its Postbox (notification-service storing a push) alike. Each starts with \
            'chat-list <ns> <chats>', <ns> being the monotonic clock (DispatchTime's, as notification-service --trace \
            prints it) when the view changed, then one line per chat as 'tg chats' prints it. With --json, one object \
            per line: {"monotonicNs", "chats": [{"chat", "name", "username", "unread", "pinned", "lastMessage"}]}. \
            --offline does not connect: only what is stored, and other processes' writes.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "How many chats the view holds.") var limit = 20
    @Option(help: "Stop after this many changes (the list as opened not counted).") var count: Int?
    @Option(name: .customLong("for"), help: "Stop after this many seconds.") var seconds: Double?
    @Flag(help: "Do not connect: show what is stored and what other processes write, without the server.")
    var offline = false

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit takes at least 1, not \(limit)") }
        if let count, count < 0 { throw ValidationError("--count takes 0 or more, not \(count)") }
    }

    func run() async throws {
        if offline {
            try await global.withSession { session in try await watch(session.account(named: global.account)) }
        } else {
            try await global.withOnlineAccount { _, account in try await watch(account) }
        }
    }

    private func watch(_ account: Account) async throws {
        let ending = WatchEnd(seconds: seconds)
        let stream = ChatListing.live(account, limit: limit, fetchingPages: !offline)
        let reader = Task { [count, json = output.json] in
            var changes = -1
            for await update in stream {
                if json {
                    try? Output.json(update, pretty: false)
                } else {
                    print("chat-list \(update.monotonicNs) \(update.chats.count)")
                    for chat in update.chats { print("  " + chat.line) }
                }
                Output.flush()
                changes += 1
                if let count, changes >= count { break }
            }
            ending.finish()
        }
        await ending.wait()
        reader.cancel()
    }
}
