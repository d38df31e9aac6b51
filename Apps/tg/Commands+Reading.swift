import ArgumentParser
import ChatHistory
import ChatRender
import CommandLineOutput
import Foundation
import Postbox
import Synchronization
import TelegramClient
import TelegramCore

#if canImport(Glibc)
    import Glibc
#endif

/// A `<peer>` argument resolved against the account.
func resolvePeer(_ text: String, _ account: Account) async throws -> PeerId {
    guard let reference = PeerReference(text) else {
        throw ToolError.badInput("empty peer", remedy: "name a chat: me, @username, +phone, user:ID")
    }
    return try await PeerResolver.resolve(reference, account: account)
}

/// A chat's name, for message lines.
func chatName(_ peerId: PeerId, _ account: Account) -> String { PeerResolver.chatName(peerId, account: account) }

struct Chats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the chats, newest first: handle, name, unread count and the last message.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "How many chats.") var limit = 50

    func run() async throws {
        let chats = try await global.withOnlineAccount { _, account in
            try await ChatListing.chats(account, limit: limit, timeout: global.timeout)
        }
        if output.json { return try Output.json(chats) }
        for chat in chats {
            let unread = chat.unread > 0 ? " (\(chat.unread) unread)" : ""
            let last =
                chat.lastMessage.map {
                    ": " + ($0.outgoing ? "me: " : "") + ($0.text.isEmpty ? "[\($0.media?.label ?? "")]" : $0.text)
                } ?? ""
            print("\(chat.chat)  \(chat.name)\(chat.username.map { " @\($0)" } ?? "")\(unread)\(last)")
        }
    }
}

struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a chat's newest messages, oldest first: [id] date author: text (markdown) [media].")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: me, @username, +phone, user:ID, chat:ID or its name.") var peer: String
    @Option(help: "How many messages.") var limit = 20

    func run() async throws {
        let summaries = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let name = chatName(peerId, account)
            return try await HistoryLoading.messages(account, peerId: peerId, limit: limit, timeout: global.timeout)
                .map { MessageSummary($0, chatName: name) }
        }
        if output.json { return try Output.json(summaries) }
        for summary in summaries { print(summary.line()) }
    }
}

struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Search messages in every chat: stored ones by word prefix, ignoring case and diacritics ('pho' finds 'phở'), or the server's with --server."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The words to find.") var text: String
    @Flag(help: "Ask the server (messages.searchGlobal) instead of the stored messages.") var server = false
    @Option(help: "At most this many results.") var limit = 50

    func run() async throws {
        let summaries: [MessageSummary] = try await global.withOnlineAccount { _, account in
            let found = try await MessageCommands.search(account, text: text, server: server, limit: limit)
            return found.map { MessageSummary($0, chatName: chatName($0.id.peerId, account)) }
        }
        if output.json { return try Output.json(summaries) }
        if summaries.isEmpty { print("Nothing found.") }
        for summary in summaries { print(summary.line(showChat: true)) }
    }
}

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Print what happens in every chat as it arrives — new and edited messages, deletions, read marks — until SIGINT, --count or --for.",
        discussion: """
            The first line ('watching') says it is listening. With --json, one object per line: {"event": \
            "new"|"edited"|"deleted"|"read", "chat", "message", "ids", "readUpTo", "readBy": "me"|"them"}, every key on \
            every line (null where it does not apply).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Stop after this many events.") var count: Int?
    @Option(name: .customLong("for"), help: "Stop after this many seconds.") var seconds: Double?

    func run() async throws {
        try await global.withOnlineAccount { _, account in
            let interrupted = Interrupt.install()
            let json = output.json
            let stream = MessageWatch(account: account).events {
                if json { try? Output.json(["watching": true], pretty: false) } else { print("watching") }
                Output.flush()
            }
            let deadline = seconds.map { Date().addingTimeInterval($0) }
            let finished = OnceFlag()
            let reader = Task { [count] in
                var printed = 0
                for await event in stream {
                    let summary = WatchEventSummary(event) { chatName($0, account) }
                    if json { try? Output.json(summary, pretty: false) } else { print(summary.line) }
                    Output.flush()
                    printed += 1
                    if let count, printed >= count { break }
                }
                finished.set()
            }
            while !interrupted.fired && !finished.value {
                if let deadline, Date() >= deadline { break }
                try? await Task.sleep(for: .milliseconds(50))
            }
            reader.cancel()
        }
    }
}

/// SIGINT ends `watch` cleanly (the accounts shut down, exit 0): a plain signal handler sets an atomic flag, installed
/// synchronously before `watch` says it listens, so no early SIGINT is lost.
struct Interrupt {
    private static let received = Atomic<Bool>(false)

    var fired: Bool { Self.received.load(ordering: .relaxed) }

    static func install() -> Interrupt {
        signal(SIGINT) { _ in Interrupt.received.store(true, ordering: .relaxed) }
        return Interrupt()
    }
}

/// A flag set once, read from any thread. `@unchecked Sendable`: `isSet` is read and written under `lock`.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false

    var value: Bool { lock.withLock { isSet } }
    func set() { lock.withLock { isSet = true } }
}

struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Draw a chat: --ansi in the terminal (bubbles, styles, replies, albums, waveforms); --png OUT is not available yet."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The chat: me, @username, +phone, user:ID, chat:ID or its name.") var peer: String
    @Flag(help: "Draw with ANSI colours and styles (the default when no --png is given).") var ansi = false
    @Option(help: "Write a PNG of the chat here (not available yet).") var png: String?
    @Option(help: "Columns (default $COLUMNS, else 80).") var width: Int?
    @Option(help: "How many messages.") var limit = 30
    @Flag(help: "No colours or styles, plain text.") var plain = false

    func validate() throws {
        if png != nil && ansi { throw ValidationError("--ansi and --png are alternatives; give one") }
    }

    func run() async throws {
        // PNG rendering: wired here once ChatRender has its Cairo renderer (the one place to change).
        if png != nil {
            throw ToolError("PNG rendering is not available yet", remedy: "use --ansi", exitCode: .failure)
        }
        let columns = width ?? ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
        let lines = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let view = try await HistoryLoading.view(account, peerId: peerId, limit: limit, timeout: global.timeout)
            let names = Dictionary(
                view.entries.compactMap { entry in entry.message.author.map { ($0.id, PeerResolver.displayName($0)) } },
                uniquingKeysWith: { first, _ in first })
            let renderer = TerminalChatRenderer(
                width: columns, accountPeerId: account.peerId, names: names, colors: !plain)
            return renderer.render(ChatHistoryEntries.make(from: view))
        }
        for line in lines { print(line) }
    }
}
