import ChatHistory
import ChatRender
import Foundation
import MediaResources
public import Postbox
import SwiftSignalKit
import SyncCore
public import TelegramClient
public import TelegramCore

/// The interactive client's shell: the raw terminal's keys and the account's live views (chat list, the open chat's
/// history, the connection status) become `ChatTerminalEvent`s, handled one at a time on one queue by
/// `ChatTerminalState`; its effects are carried out against the account (TelegramClient) and each new state is drawn.
/// `@unchecked Sendable`: `state`, `account` and `accounts` are used only on `queue`.
public final class ChatTerminalApp: @unchecked Sendable {
    private let session: ClientSession
    private let timeout: Double
    private let terminal: RawTerminal
    private let queue = DispatchQueue(label: "tg.interactive")
    private var state: ChatTerminalState
    private var account: Account
    private var accounts: [String: Account] = [:]
    private let chatList = MetaDisposable()
    private let status = MetaDisposable()
    private let history = MetaDisposable()
    private let loggedOut = MetaDisposable()
    private let drafts = MetaDisposable()
    private let muted = MetaDisposable()
    private var finished: CheckedContinuation<Void, Never>?
    private var done = false
    /// The secret chats whose other side was last seen typing, and when this user's typing was last sent per chat.
    private var typingShown: Set<PeerId> = []
    private var typingSent: [PeerId: Date] = [:]
    /// How often this user's typing goes out while they type (a notice lasts `SecretChatManager.typingDuration`).
    static let typingInterval: Double = 4
    /// When this account last told the server it is online, and when the presence lines were last read.
    private var onlineSent: Date?
    private var presencesRead: Date?
    private var presencesShown: [PeerId: ChatSubtitle] = [:]
    /// How often the open client says it is online (the server keeps it online 5 minutes from each; Telegram-iOS
    /// repeats it well within that), and how often the presence lines are read again (their "minutes ago" moves).
    static let onlineInterval: Double = 60
    static let presenceInterval: Double = 1

    private init(session: ClientSession, account: Account, name: String, timeout: Double, terminal: RawTerminal) {
        self.session = session
        self.account = account
        self.timeout = timeout
        self.terminal = terminal
        let size = terminal.size
        state = ChatTerminalState(width: size.width, height: size.height)
        accounts[name] = account
    }

    /// Runs the interactive client on the account `accountName` (or the current one) until the user leaves or a
    /// terminating signal arrives; the terminal is restored whatever happens. The account starts at once from what
    /// it has stored (the title says `connecting` or `waiting for network` until the server answers).
    /// `.notLoggedIn` for an unknown account, `.badInput` without a terminal. `timeout` bounds each action (sending,
    /// switching accounts).
    public static func run(session: ClientSession, accountName: String?, timeout: Double) async throws(ClientError) {
        let profile = try session.profile(named: accountName)
        let account = try session.account(named: profile.name)
        session.start(account)
        guard let terminal = RawTerminal() else {
            throw .badInput("the interactive client needs a terminal on standard input and output")
        }
        let app = ChatTerminalApp(
            session: session, account: account, name: profile.name, timeout: timeout, terminal: terminal)
        await app.run(name: profile.name)
        terminal.restore()
    }

    private func run(name: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.finished = continuation
                self.use(self.account, name: name)
                self.draw()
            }
            let input = Thread { self.readInput() }
            input.start()
        }
        for disposable in [chatList, status, history, loggedOut, drafts, muted] { disposable.dispose() }
    }

    /// The input loop (its own thread): keys, resizes and terminating signals become events.
    private func readInput() {
        var decoder = TerminalKeyDecoder()
        while true {
            if queue.sync(execute: { done }) { return }
            if terminal.terminatingSignal != 0 {
                post(.key(.ctrl("c")))
                return
            }
            queue.async {
                self.refreshTyping()
                self.refreshPresence()
            }
            if terminal.takeResize() {
                let size = terminal.size
                post(.resize(width: size.width, height: size.height))
            }
            guard let bytes = terminal.read(timeout: 0.05) else {
                post(.key(.ctrl("d")))
                return
            }
            var keys = decoder.decode(bytes)
            if bytes.isEmpty { keys += decoder.flushEscape() }
            for key in keys { post(.key(key)) }
        }
    }

    /// Shows the chats someone is typing in — secret chats' other side, and users in private chats, groups and
    /// channels (`Account.activities`) — on the queue; redraws only when it changed.
    private func refreshTyping() {
        guard !done else { return }
        let now = Set(account.secretChats.typingChats.map(SecretChatRecord.peerId))
            .union(account.activities.typingChats)
        guard now != typingShown else { return }
        typingShown = now
        _ = state.handle(.typing(now))
        draw()
    }

    /// Says this account is online every `onlineInterval` while the client is open, and shows each private chat's
    /// presence line (read every `presenceInterval`); redraws only when a line changed. On the queue.
    private func refreshPresence() {
        guard !done else { return }
        let now = Date()
        if onlineSent.map({ now.timeIntervalSince($0) >= Self.onlineInterval }) ?? true {
            onlineSent = now
            let account = self.account
            Task { try? await PresenceCommands.setOnline(account, true) }
        }
        if let read = presencesRead, now.timeIntervalSince(read) < Self.presenceInterval { return }
        presencesRead = now
        var peers = state.chats.map(\.peerId)
        if case .chat(let open) = state.mode { peers.append(open) }
        let seconds = PresenceCommands.now
        let lines = PresenceCommands.presences(account, of: peers).mapValues {
            ChatSubtitle(presence: $0, now: seconds)
        }
        guard lines != presencesShown else { return }
        presencesShown = lines
        _ = state.handle(.presences(lines))
        draw()
    }

    /// Handles `event` on the queue, carries out its effects and draws.
    private func post(_ event: ChatTerminalEvent) {
        queue.async {
            guard !self.done else { return }
            let effects = self.state.handle(event)
            for effect in effects { self.perform(effect) }
            if !self.done { self.draw() }
        }
    }

    private func draw() { terminal.draw(state.screen) }

    /// Follows `account`'s chat list and connection status (on the queue).
    private func use(_ account: Account, name: String) {
        self.account = account
        accounts[name] = account
        history.set(nil)
        let all = session.profiles.accounts.map(\.name)
        _ = state.handle(.account(name: name, peerId: account.peerId, all: all))
        chatList.set(
            account.chatListView(count: 100).start(next: { [weak self] view in
                // Secret chats have no stored peer: named `🔒 ` and the other user from the account's secret chats.
                var names: [PeerId: String] = [:]
                for entry in view.entries where SecretChatting.isSecret(entry.peerId) {
                    names[entry.peerId] = PeerResolver.chatName(entry.peerId, account: account)
                }
                self?.post(.chatNames(names))
                self?.post(.chatList(view))
            }))
        drafts.set(
            account.drafts.start(next: { [weak self] all in
                self?.post(.drafts(all.mapValues { ChatTerminalDraft(text: $0.text, replyTo: $0.replyToMessageId) }))
            }))
        muted.set(
            account.peerNotificationSettings.start(next: { [weak self] all in
                let now = Int32(Date().timeIntervalSince1970)
                self?.post(.muted(Set(all.filter { $0.value.isMuted(at: now) }.keys)))
            }))
        status.set(
            ClientConnection.status(of: account, throughProxy: session.proxy != nil).start(next: { [weak self] value in
                self?.post(.connection(value))
            }))
        loggedOut.set(
            (account.loggedOut |> filter { $0 }).start(next: { [weak self] _ in
                self?.post(.notice("the server ended this account's authorization — 'tg login --account \(name)'"))
            }))
    }

    private func perform(_ effect: ChatTerminalEffect) {
        let account = self.account
        switch effect {
        case .openHistory(let peerId, let anchor):
            history.set(
                account.historyView(peerId: peerId, anchor: anchor, count: ChatHistoryPaging.windowSize).start(next: {
                    [weak self] view in
                    self?.post(.peerNames(ChatNames.of(view.entries.map(\.message), account: account)))
                    self?.post(.history(view))
                }))
        case .closeHistory:
            history.set(nil)
        case .typing(let peerId):
            guard peerId != account.peerId else { return }  // Saved Messages: nobody to tell
            let now = Date()
            if let last = typingSent[peerId], now.timeIntervalSince(last) < Self.typingInterval { return }
            typingSent[peerId] = now
            if SecretChatting.isSecret(peerId) {
                Task { try? await account.secretChats.sendTyping(chatId: SecretChatting.chatId(peerId)) }
            } else {
                Task { try? await account.sendTyping(in: peerId) }
            }
        case .markRead(let peerId):
            let timeout = self.timeout
            Task { _ = try? await MessageCommands.read(account, peerId: peerId, upTo: nil, timeout: timeout) }
        case .send(let outgoing, let peerId):
            let timeout = self.timeout
            Task {
                do {
                    if SecretChatting.isSecret(peerId) {
                        try await Self.sendSecret(outgoing, peerId: peerId, account: account, timeout: timeout)
                        if case .text = outgoing {} else { self.post(.notice("sent")) }
                        return
                    }
                    let messages = try await Self.prepare(outgoing, peerId: peerId, account: account)
                    _ = try await MessageSending.send(messages, to: peerId, account: account, timeout: timeout)
                    if case .text = outgoing {} else { self.post(.notice("sent")) }
                } catch {
                    self.post(.notice("not sent: \(error)"))
                }
            }
        case .saveDraft(let peerId, let draft):
            guard !SecretChatting.isSecret(peerId) else { return }  // a secret chat's draft stays on this device
            Task {
                do {
                    try await account.saveDraft(peerId, text: draft?.text ?? "", replyTo: draft?.replyTo)
                } catch {
                    self.post(.notice("draft not saved: \(error)"))
                }
            }
        case .saveGif(let peerId, let id):
            let timeout = self.timeout
            Task {
                do {
                    let file = try await GifCommands.gif(in: peerId, message: id, account: account, timeout: timeout)
                    try await GifCommands.save(file, remove: false, account: account)
                    self.post(.notice("GIF saved: /gif 1 sends it"))
                } catch {
                    self.post(.notice("GIF not saved: \(error)"))
                }
            }
        case .search(let text):
            Task {
                do {
                    let found = try await MessageCommands.search(account, text: text, server: false, limit: 100)
                    let hits = found.map { message in
                        ChatTerminalSearchHit(
                            index: message.index, chatName: PeerResolver.chatName(message.id.peerId, account: account),
                            text: message.text.isEmpty ? "[media]" : message.text)
                    }
                    self.post(.searchResults(query: text, hits))
                } catch {
                    self.post(.notice("search failed: \(error)"))
                }
            }
        case .switchAccount(let name):
            if let known = accounts[name] {
                use(known, name: name)
                return
            }
            do {
                let other = try session.account(named: name)
                session.start(other)
                use(other, name: name)
            } catch {
                _ = state.handle(.notice("cannot switch to \(name): \(error)"))
            }
        case .quit:
            done = true
            // Leaving: offline at once (not five minutes later), as Telegram's apps say when they close.
            let account = self.account
            let finished = self.finished
            self.finished = nil
            Task {
                await PresenceCommands.leave(account, timeout: 2)
                finished?.resume()
            }
        }
    }

    /// The messages an outgoing line becomes: markdown parsed, media prepared for the account.
    static func prepare(
        _ outgoing: ChatTerminalOutgoing, peerId: PeerId, account: Account
    ) async throws -> [EnqueueMessage] {
        func reply(_ id: Int32?) -> MessageId? {
            id.map { MessageId(peerId: peerId, namespace: Namespaces.Message.cloud, id: $0) }
        }
        switch outgoing {
        case .text(let markdown, let replyTo):
            let (text, entities) = OutgoingText.parse(markdown)
            return [EnqueueMessage(text: text, entities: entities, replyTo: reply(replyTo))]
        case .photo(let path, let caption, let replyTo):
            let (text, entities) = OutgoingText.parse(caption)
            let photo = try OutgoingPhoto.prepare(path: Self.expand(path), for: account)
            return [EnqueueMessage(text: text, entities: entities, replyTo: reply(replyTo), media: photo)]
        case .file(let path, let caption, let replyTo):
            let (text, entities) = OutgoingText.parse(caption)
            let full = Self.expand(path)
            let name = (full as NSString).lastPathComponent
            let file = try account.prepareFile(path: full, name: name, mimeType: MimeTypes.guess(name))
            return [EnqueueMessage(text: text, entities: entities, replyTo: reply(replyTo), file: file)]
        case .voice(let path, let replyTo):
            let note = try OutgoingVoiceNote.prepare(path: Self.expand(path), for: account)
            return [EnqueueMessage(text: "", replyTo: reply(replyTo), file: note)]
        case .sticker(let choice, let replyTo):
            guard let sticker = StickerChoice(choice) else { throw ClientError.badInput("no sticker \(choice)") }
            return [EnqueueMessage(text: "", replyTo: reply(replyTo), media: try await sticker.file(account: account))]
        case .savedGif(let number, let replyTo):
            let gif = try await GifCommands.saved(number, account: account)
            return [EnqueueMessage(text: "", replyTo: reply(replyTo), media: gif)]
        }
    }

    /// An outgoing line in a secret chat: the same text, media and replies, sealed by the account's secret chats
    /// (`SecretChatting.send`) instead of the pending-message manager.
    static func sendSecret(
        _ outgoing: ChatTerminalOutgoing, peerId: PeerId, account: Account, timeout: Double
    ) async throws {
        let markdown: String
        let attachment: SecretChatting.Attachment?
        let replyTo: Int32?
        switch outgoing {
        case .text(let text, let reply): (markdown, attachment, replyTo) = (text, nil, reply)
        case .photo(let path, let caption, let reply):
            (markdown, attachment, replyTo) = (
                caption, .media(try SecretChatMediaPreparation.photo(path: expand(path))), reply
            )
        case .file(let path, let caption, let reply):
            (markdown, attachment, replyTo) = (caption, .file(expand(path)), reply)
        case .voice(let path, let reply):
            (markdown, attachment, replyTo) = (
                "", .media(try SecretChatMediaPreparation.voice(path: expand(path))), reply
            )
        case .sticker(let choice, let reply):
            guard let sticker = StickerChoice(choice) else { throw ClientError.badInput("no sticker \(choice)") }
            (markdown, attachment, replyTo) = ("", .media(.external(try await sticker.file(account: account))), reply)
        case .savedGif(let number, let reply):
            // A cloud document in a secret chat is sent as an external document, as stickers are.
            (markdown, attachment, replyTo) = (
                "", .media(.external(try await GifCommands.saved(number, account: account))), reply
            )
        }
        _ = try await SecretChatting.send(
            markdown: markdown, attachment: attachment, replyTo: replyTo, chatId: SecretChatting.chatId(peerId),
            account: account, timeout: timeout)
    }

    /// `~/…` expanded.
    static func expand(_ path: String) -> String { (path as NSString).expandingTildeInPath }
}
