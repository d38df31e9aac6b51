import ArgumentParser
import ChatHistory
import ChatRender
import CommandLineOutput
import Foundation
import MediaResources
import Postbox
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
        for chat in chats { print(chat.line) }
    }
}

struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a chat's newest messages, oldest first: [id] date author: text (markdown) [media].")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: me, @username, +phone, user:ID, chat:ID, secret:ID or its name.") var peer: String
    @Option(help: "How many messages.") var limit = 20

    func run() async throws {
        let summaries = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let name = chatName(peerId, account)
            let messages = try await HistoryLoading.messages(
                account, peerId: peerId, limit: limit, timeout: global.timeout)
            let readState = HistoryLoading.readState(account, peerId: peerId)
            let names = ChatNames.of(messages, account: account)
            return messages.map { MessageSummary($0, chatName: name, readState: readState, names: names) }
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
            "new"|"edited"|"deleted"|"read"|"typing", "chat", "message", "ids", "readUpTo", "readBy": "me"|"them", \
            "user", "userName"}, every key on every line (null where it does not apply). Typing notices \
            ('typing CHAT: NAME is typing…', updateUserTyping) are printed but not counted by --count.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Stop after this many events.") var count: Int?
    @Option(name: .customLong("for"), help: "Stop after this many seconds.") var seconds: Double?

    func run() async throws {
        try await global.withOnlineAccount { _, account in
            let ending = WatchEnd(seconds: seconds)
            let json = output.json
            // Secret chats others ask for are accepted while watching, as Telegram's apps do while they run.
            let accepting = Task {
                await SecretChatting.acceptIncomingWhileRunning(account: account) { chatId in
                    guard !json else { return }
                    print("accepted secret chat secret:\(chatId)")
                    Output.flush()
                }
            }
            defer { accepting.cancel() }
            let stream = MessageWatch(account: account).events {
                if json { try? Output.json(["watching": true], pretty: false) } else { print("watching") }
                Output.flush()
            }
            let reader = Task { [count] in
                var printed = 0
                for await event in stream {
                    let summary = WatchEventSummary(event) { chatName($0, account) }
                    if json { try? Output.json(summary, pretty: false) } else { print(summary.line) }
                    Output.flush()
                    if case .typing = event { continue }
                    printed += 1
                    if let count, printed >= count { break }
                }
                ending.finish()
            }
            await ending.wait()
            reader.cancel()
        }
    }
}

struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Draw a chat: --ansi in the terminal (bubbles, styles, replies, albums, waveforms), or --png OUT as a phone screen.",
        discussion: """
            --png draws a 1080×2400 phone screen (360×800 points at --scale 3) scrolled to the bottom, with the photos and \
            stickers fetched first; --fit makes it as tall as the whole chat needs (at most 4000 points). Prints the \
            PNG's path, or with --json {"path", "width", "height", "missingPictures"}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: me, @username, +phone, user:ID, chat:ID or its name.") var peer: String
    @Flag(help: "Draw with ANSI colours and styles (the default when no --png is given).") var ansi = false
    @Option(help: "Write a PNG of the chat here.") var png: String?
    @Flag(help: "With --png: a screen tall enough for every message shown.") var fit = false
    @Option(help: "With --png: pixels per point (the screen is 360 points wide; 3 gives 1080 px).") var scale = 3.0
    @Option(help: "Columns (default $COLUMNS, else 80).") var width: Int?
    @Option(help: "How many messages.") var limit = 30
    @Flag(help: "No colours or styles, plain text.") var plain = false

    func validate() throws {
        if png != nil && ansi { throw ValidationError("--ansi and --png are alternatives; give one") }
        if fit && png == nil { throw ValidationError("--fit goes with --png") }
        if !(0.5...4).contains(scale) { throw ValidationError("--scale takes 0.5 to 4, not \(scale)") }
    }

    struct PNGResult: Encodable {
        var path: String
        var width: Int
        var height: Int
        var missingPictures: Int
    }

    func run() async throws {
        if let png { return try await drawPNG(png) }
        let columns = width ?? ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
        let lines = try await global.withOnlineAccount { _, account in
            let (peerId, view, names) = try await chatView(account)
            let renderer = TerminalChatRenderer(
                width: columns, accountPeerId: account.peerId, names: names, colors: !plain)
            let header =
                subtitle(peerId, account).map { renderer.headerLines(title: chatName(peerId, account), subtitle: $0) }
                ?? []
            let bar = await pinnedBar(peerId, account).map { renderer.pinnedBarLines($0) } ?? []
            return header + bar + renderer.render(ChatHistoryEntries.make(from: view))
        }
        for line in lines { print(line) }
    }

    /// The chat, its history view and its authors' names.
    private func chatView(_ account: Account) async throws -> (PeerId, MessageHistoryView, [PeerId: String]) {
        let peerId = try await resolvePeer(peer, account)
        let view = try await HistoryLoading.viewWithReactions(
            account, peerId: peerId, limit: limit, timeout: global.timeout)
        return (peerId, view, ChatNames.of(view.entries.map(\.message), account: account))
    }

    /// A private chat's presence line ("online", "last seen 5 minutes ago"), from what the history's users carried.
    private func subtitle(_ peerId: PeerId, _ account: Account) -> ChatSubtitle? {
        PresenceCommands.presence(account, of: peerId).map { ChatSubtitle(presence: $0, now: PresenceCommands.now) }
    }

    /// The bar of the chat's newest pinned message: the server's (`Account.newestPinnedMessage`), else, when it cannot
    /// be asked, the newest stored with the pinned tag.
    private func pinnedBar(_ peerId: PeerId, _ account: Account) async -> PinnedMessageBar? {
        do {
            return try await account.newestPinnedMessage(peerId).map(PinnedMessageBar.init)
        } catch {
            let message = try? account.postbox.readTransactionSync { tx in
                try PinnedMessages.newest(in: peerId, transaction: tx)
            }
            return message.flatMap { $0 }.map(PinnedMessageBar.init)
        }
    }

    /// ChatRender's `ChatScreenRenderer` over the chat, its pictures fetched through MediaResources.
    private func drawPNG(_ path: String) async throws {
        let snapshot = try await global.withOnlineAccount { _, account in
            let (peerId, view, names) = try await chatView(account)
            let style = ChatScreenStyle(width: 360, height: 800, scale: scale)
            let renderer = ChatScreenRenderer(
                style: style, accountPeerId: account.peerId, names: names, title: chatName(peerId, account),
                pinnedBar: await pinnedBar(peerId, account), subtitle: subtitle(peerId, account))
            let loader = ChatMediaLoader(
                images: ImageResources(account: account), stickers: StickerResources(account: account), style: style)
            let chat = try? account.postbox.readTransactionSync { try $0.getPeer(peerId) }
            return await ChatScreenSnapshot.make(
                ChatHistoryEntries.make(from: view), renderer: renderer, loader: loader, timeout: global.timeout,
                fitAll: fit, chat: chat ?? nil)
        }
        let bytes: [UInt8]
        do { bytes = try snapshot.screen.png() } catch {
            throw ToolError("encoding the PNG: \(error)", remedy: "report this", exitCode: .failure)
        }
        try writeAtomically(bytes, to: path)
        for (id, why) in snapshot.media.failures.sorted(by: { $0.key.id < $1.key.id }) {
            FileHandle.standardError.write(Data("tg: warning: message \(id.id)'s picture is missing: \(why)\n".utf8))
        }
        let geometry = snapshot.screen.geometry
        if output.json {
            return try Output.json(
                PNGResult(
                    path: path, width: geometry.width, height: geometry.height,
                    missingPictures: snapshot.media.failures.count))
        }
        print(path)
    }
}
