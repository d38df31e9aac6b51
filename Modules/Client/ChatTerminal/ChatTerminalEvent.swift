public import ChatRender
public import Postbox
public import TelegramClient

/// What reaches the interactive client's state machine: keys, the terminal's size, and the account's live values.
public enum ChatTerminalEvent: Sendable {
    case key(TerminalKey)
    /// The terminal's size in columns and rows.
    case resize(width: Int, height: Int)
    /// The account's connection status (`ClientConnection.status`).
    case connection(ClientConnectionStatus)
    /// The account's chat list view, each time it changes.
    case chatList(ChatListView)
    /// Names of chats the stored peers cannot name (secret chats: `🔒 ` and the other user), sent before the chat
    /// list they belong to.
    case chatNames([PeerId: String])
    /// The open chat's history view, each time it changes (holes filled, messages arriving, the window moved).
    case history(MessageHistoryView)
    /// Names of the peers the open chat's messages show but do not carry (a forward's first author: "Forwarded from
    /// NAME"), sent before the history view they belong to.
    case peerNames([PeerId: String])
    /// The account in use: after starting and after a switch (the other names are what Tab cycles through).
    case account(name: String, peerId: PeerId, all: [String])
    /// A line for the status bar: an action's outcome or error.
    case notice(String)
    /// What `/search` found.
    case searchResults(query: String, [ChatTerminalSearchHit])
    /// The chats someone is typing in now (`updateEncryptedChatTyping` in secret chats; `updateUserTyping`,
    /// `updateChatUserTyping`, `updateChannelUserTyping` elsewhere).
    case typing(Set<PeerId>)
    /// The presence line of each private chat's user ("online", "last seen 5 minutes ago"), when it changes.
    case presences([PeerId: ChatSubtitle])
    /// Every chat's draft (`Account.drafts`), each time one changes.
    case drafts([PeerId: ChatTerminalDraft])
    /// The chats muted now (`Account.peerNotificationSettings`), each time a chat's notify settings change.
    case muted(Set<PeerId>)
}

/// A chat's draft as the interactive client keeps it: the compose line and the message it replies to.
public struct ChatTerminalDraft: Equatable, Sendable {
    public var text: String
    public var replyTo: Int32?

    public init(text: String, replyTo: Int32? = nil) {
        self.text = text
        self.replyTo = replyTo
    }
}

/// One message `/search` found.
public struct ChatTerminalSearchHit: Equatable, Sendable {
    public var index: MessageIndex
    public var chatName: String
    public var text: String

    public init(index: MessageIndex, chatName: String, text: String) {
        self.index = index
        self.chatName = chatName
        self.text = text
    }
}

/// What the state machine asks the shell to do; the shell does it against the account and reports back as events.
public enum ChatTerminalEffect: Equatable, Sendable {
    /// Follow the history view of a chat around `anchor` (replacing any other history view).
    case openHistory(PeerId, anchor: HistoryViewInputAnchor)
    /// Stop following the history view.
    case closeHistory
    /// Send to a chat.
    case send(ChatTerminalOutgoing, to: PeerId)
    /// Mark the chat read up to its newest message.
    case markRead(PeerId)
    /// Tell the chat's other side this user is typing (`messages.setTyping`, a secret chat's `setEncryptedTyping`; the shell
    /// sends it at most every few seconds).
    case typing(PeerId)
    /// Save the chat's draft (`Account.saveDraft`); `nil` clears it.
    case saveDraft(PeerId, ChatTerminalDraft?)
    /// Save the GIF of a message at the front of the account's saved GIFs (`messages.saveGif`).
    case saveGif(PeerId, message: Int32)
    /// Search the stored messages.
    case search(String)
    /// Use the account with this name.
    case switchAccount(String)
    /// Leave: restore the terminal and exit.
    case quit
}

/// A message typed on the compose line.
public enum ChatTerminalOutgoing: Equatable, Sendable {
    case text(markdown: String, replyTo: Int32?)
    case photo(path: String, caption: String, replyTo: Int32?)
    case file(path: String, caption: String, replyTo: Int32?)
    case voice(path: String, replyTo: Int32?)
    /// A sticker as `<set>/<n>` (`n` alone means tg-server's set `telegraph`).
    case sticker(String, replyTo: Int32?)
    /// The account's `n`th saved GIF (from 1, latest saved first, as `tg gifs` numbers them), sent by reference.
    case savedGif(Int, replyTo: Int32?)
}
