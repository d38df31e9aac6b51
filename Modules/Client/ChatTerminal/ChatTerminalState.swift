public import ChatHistory
public import ChatRender
public import Postbox
public import TelegramClient

/// The interactive client as a pure state machine: `handle` takes a key or an account event and returns what the
/// shell must do; `screen` composes what the terminal shows. Nothing here touches a terminal or the network, so the
/// tests drive it with key sequences and real Postbox views.
public struct ChatTerminalState: Sendable {
    /// Which screen is up.
    public enum Mode: Equatable, Sendable {
        case chatList
        case chat(PeerId)
        case search
    }

    public internal(set) var mode: Mode = .chatList
    public internal(set) var width = 80
    public internal(set) var height = 24
    public internal(set) var connection: ClientConnectionStatus = .connecting
    public internal(set) var accountName = ""
    public internal(set) var accountPeerId: PeerId?
    /// Names of chats the stored peers cannot name (secret chats), from `.chatNames`.
    public internal(set) var chatNames: [PeerId: String] = [:]
    public internal(set) var accountNames: [String] = []
    /// The chat list's rows, newest first.
    public internal(set) var chats: [ChatTerminalChatRow] = []
    public internal(set) var selectedChat = 0
    /// The compose line (a message, or a `/command`).
    public internal(set) var compose = ""
    /// The message the next one replies to (`/reply ID`).
    public internal(set) var replyTo: Int32?
    /// The status line's text.
    public internal(set) var notice: String?
    public internal(set) var searchQuery = ""
    public internal(set) var searchHits: [ChatTerminalSearchHit] = []
    public internal(set) var selectedHit = 0
    /// The open chat's history.
    public internal(set) var history = ChatTerminalHistory()
    /// The chats whose other side is typing now (the open one's title says so).
    public internal(set) var typingPeers: Set<PeerId> = []
    /// Each private chat's presence line (the open one's title and the chat list show it).
    public internal(set) var presences: [PeerId: ChatSubtitle] = [:]
    /// Every chat's draft: a chat's is restored on the compose line when it opens, and saved when it is left with
    /// text typed (Telegram's apps keep an unsent line the same way).
    public internal(set) var drafts: [PeerId: ChatTerminalDraft] = [:]
    /// The muted chats, shown with `🔇` after their name in the list.
    public internal(set) var muted: Set<PeerId> = []
    /// Whether the user asked to leave.
    public internal(set) var quitting = false

    public init(width: Int = 80, height: Int = 24) {
        self.width = max(20, width)
        self.height = max(5, height)
    }

    /// Rows of the history pane: the screen less the title, the status line and the compose line.
    var historyRows: Int { max(1, height - 3 - (pinnedBar == nil ? 0 : 2)) }

    /// The open chat's pinned-message bar (Telegram-iOS `ChatPinnedMessageTitlePanelNode`): the newest message of the
    /// history window the account tags `.pinned`; it takes two rows over the history (the bar and a rule).
    var pinnedBar: PinnedMessageBar? {
        guard case .chat = mode else { return nil }
        return history.entries.flatMap(\.messages).last { $0.tags.contains(.pinned) }.map(PinnedMessageBar.init)
    }
    /// Rows of the chat list and search panes: the screen less the title, the status line and the command line.
    var listRows: Int { max(1, height - 3) }

    /// Applies `event` and returns what the shell must do, in order.
    public mutating func handle(_ event: ChatTerminalEvent) -> [ChatTerminalEffect] {
        switch event {
        case .key(let key):
            return handleKey(key)
        case .resize(let width, let height):
            self.width = max(20, width)
            self.height = max(5, height)
            history.relayout(width: self.width, accountPeerId: accountPeerId)
            history.clampScroll(rows: historyRows)
            return pagingEffects()
        case .connection(let status):
            connection = status
            return []
        case .chatNames(let names):
            chatNames = names
            return []
        case .peerNames(let names):
            history.peerNames = names
            return []
        case .chatList(let view):
            let selectedPeer = chats.indices.contains(selectedChat) ? chats[selectedChat].peerId : nil
            chats = view.entries.map {
                ChatTerminalChatRow($0, accountPeerId: accountPeerId, names: chatNames, draft: drafts[$0.peerId])
            }
            selectedChat = selectedPeer.flatMap { peer in chats.firstIndex { $0.peerId == peer } } ?? 0
            selectedChat = min(selectedChat, max(0, chats.count - 1))
            return []
        case .history(let view):
            guard case .chat(let peerId) = mode, view.peerId == peerId, let accountPeerId else { return [] }
            let update = history.apply(view, width: width, accountPeerId: accountPeerId, rows: historyRows)
            var effects = pagingEffects()
            if update.newIncoming && history.scrollOffset == 0 { effects.append(.markRead(peerId)) }
            return effects
        case .account(let name, let peerId, let all):
            let changed = accountPeerId != nil && accountPeerId != peerId
            accountName = name
            accountPeerId = peerId
            accountNames = all
            if changed {
                chats = []
                selectedChat = 0
                history = ChatTerminalHistory()
                replyTo = nil
                let wasInChat = { if case .chat = mode { return true } else { return false } }()
                mode = .chatList
                notice = "switched to \(name)"
                return wasInChat ? [.closeHistory] : []
            }
            return []
        case .notice(let text):
            notice = text
            return []
        case .typing(let peers):
            typingPeers = peers
            return []
        case .presences(let lines):
            presences = lines
            return []
        case .muted(let peers):
            muted = peers
            return []
        case .drafts(let all):
            drafts = all
            for index in chats.indices { chats[index].draft = all[chats[index].peerId]?.text }
            return []
        case .searchResults(let query, let hits):
            searchQuery = query
            searchHits = hits
            selectedHit = 0
            mode = .search
            notice =
                hits.isEmpty ? "nothing found for “\(query)”" : "\(hits.count) found — Enter opens, Esc goes back"
            return []
        }
    }

    // MARK: - Keys

    mutating func handleKey(_ key: TerminalKey) -> [ChatTerminalEffect] {
        switch key {
        case .ctrl("c"), .ctrl("d"):
            quitting = true
            return [.quit]
        case .tab:
            return nextAccount()
        case .character(let character):
            compose.append(character)
            // Typing a message (not a command) tells the chat's other side, as Telegram's apps do.
            if case .chat(let peerId) = mode, !compose.hasPrefix("/") {
                return [.typing(peerId)]
            }
            return []
        case .backspace:
            if !compose.isEmpty { compose.removeLast() }
            return []
        case .ctrl("u"):
            compose = ""
            return []
        default:
            break
        }
        switch mode {
        case .chatList: return chatListKey(key)
        case .chat(let peerId): return chatKey(key, peerId: peerId)
        case .search: return searchKey(key)
        }
    }

    mutating func chatListKey(_ key: TerminalKey) -> [ChatTerminalEffect] {
        switch key {
        case .up: selectedChat = max(0, selectedChat - 1)
        case .down: selectedChat = min(max(0, chats.count - 1), selectedChat + 1)
        case .pageUp: selectedChat = max(0, selectedChat - listRows)
        case .pageDown: selectedChat = min(max(0, chats.count - 1), selectedChat + listRows)
        case .home: selectedChat = 0
        case .end: selectedChat = max(0, chats.count - 1)
        case .escape: compose = ""
        case .enter:
            if !compose.isEmpty { return runComposeLine(in: nil) }
            guard chats.indices.contains(selectedChat) else { return [] }
            return open(chats[selectedChat].peerId, anchor: .upperBound)
        default: break
        }
        return []
    }

    mutating func chatKey(_ key: TerminalKey, peerId: PeerId) -> [ChatTerminalEffect] {
        switch key {
        case .up: history.scroll(by: 1, rows: historyRows)
        case .down: history.scroll(by: -1, rows: historyRows)
        case .pageUp: history.scroll(by: max(1, historyRows - 1), rows: historyRows)
        case .pageDown: history.scroll(by: -max(1, historyRows - 1), rows: historyRows)
        case .end:
            history.scroll(by: -history.scrollOffset, rows: historyRows)
            // Back to the newest messages: the window that follows them, if another one is shown.
            if let view = history.view, view.anchor != .upperBound || view.laterId != nil,
                history.requestedAnchor != .upperBound
            {
                history.requestedAnchor = .upperBound
                return [.openHistory(peerId, anchor: .upperBound)]
            }
        case .home: history.scroll(by: history.lines.count, rows: historyRows)
        case .escape:
            // A command line, or a reply without text, is cleared first; a message typed goes with the chat as its
            // draft (and an emptied line clears the chat's draft).
            if compose.hasPrefix("/") || (compose.isEmpty && replyTo != nil) {
                compose = ""
                replyTo = nil
                return []
            }
            var effects: [ChatTerminalEffect] = []
            let draft = compose.isEmpty ? nil : ChatTerminalDraft(text: compose, replyTo: replyTo)
            if draft != drafts[peerId] {
                setDraft(draft, for: peerId)
                effects.append(.saveDraft(peerId, draft))
            }
            compose = ""
            replyTo = nil
            mode = .chatList
            history = ChatTerminalHistory()
            notice = nil
            return effects + [.closeHistory]
        case .enter:
            return runComposeLine(in: peerId)
        default:
            return []
        }
        return pagingEffects()
    }

    mutating func searchKey(_ key: TerminalKey) -> [ChatTerminalEffect] {
        switch key {
        case .up: selectedHit = max(0, selectedHit - 1)
        case .down: selectedHit = min(max(0, searchHits.count - 1), selectedHit + 1)
        case .escape:
            if !compose.isEmpty { compose = "" } else { mode = .chatList; notice = nil }
        case .enter:
            if !compose.isEmpty { return runComposeLine(in: nil) }
            guard searchHits.indices.contains(selectedHit) else { return [] }
            let hit = searchHits[selectedHit]
            return open(hit.index.id.peerId, anchor: .index(hit.index))
        default: break
        }
        return []
    }

    /// Sets (or with `nil` clears) `peerId`'s draft here and in its chat-list row.
    mutating func setDraft(_ draft: ChatTerminalDraft?, for peerId: PeerId) {
        drafts[peerId] = draft
        for index in chats.indices where chats[index].peerId == peerId { chats[index].draft = draft?.text }
    }

    mutating func open(_ peerId: PeerId, anchor: HistoryViewInputAnchor) -> [ChatTerminalEffect] {
        mode = .chat(peerId)
        history = ChatTerminalHistory()
        history.requestedAnchor = anchor
        // The chat's draft comes back on the compose line.
        compose = drafts[peerId]?.text ?? ""
        replyTo = drafts[peerId]?.replyTo
        notice = nil
        return [.openHistory(peerId, anchor: anchor), .markRead(peerId)]
    }

    mutating func nextAccount() -> [ChatTerminalEffect] {
        guard accountNames.count > 1 else {
            notice = "no other account — 'tg login --account NAME' adds one"
            return []
        }
        let index = accountNames.firstIndex(of: accountName) ?? -1
        return [.switchAccount(accountNames[(index + 1) % accountNames.count])]
    }

    /// A new window around the rows on screen when they near an edge of the history view (ChatHistoryPaging).
    mutating func pagingEffects() -> [ChatTerminalEffect] {
        guard case .chat(let peerId) = mode, let view = history.view,
            let visible = history.visibleEntries(rows: historyRows),
            let anchor = ChatHistoryPaging.anchor(visible: visible, entries: history.entries, view: view),
            anchor != history.requestedAnchor
        else { return [] }
        history.requestedAnchor = anchor
        return [.openHistory(peerId, anchor: anchor)]
    }
}

/// A chat list row.
public struct ChatTerminalChatRow: Equatable, Sendable {
    public var peerId: PeerId
    public var name: String
    public var unread: Int32
    /// The last message as one line: `me: ` for ours, `[photo]` for media without text.
    public var lastMessage: String
    /// The chat's draft, shown instead of the last message (`Draft: …`, as Telegram's chat list does).
    public var draft: String?

    init(_ entry: ChatListEntry, accountPeerId: PeerId?, names: [PeerId: String] = [:], draft: ChatTerminalDraft? = nil)
    {
        self.draft = draft?.text
        peerId = entry.peerId
        name =
            entry.peerId == accountPeerId
            ? PeerResolver.savedMessages : names[entry.peerId] ?? PeerResolver.displayName(entry.peer)
        unread = entry.unreadCount
        if let message = entry.topMessage {
            let summary = MessageSummary(message, chatName: name)
            let body = summary.text.isEmpty ? "[\(summary.media?.label ?? "message")]" : summary.text
            lastMessage =
                (summary.outgoing ? "me: " : "") + body.split(whereSeparator: \.isNewline).joined(separator: " ")
        } else {
            lastMessage = ""
        }
    }
}
