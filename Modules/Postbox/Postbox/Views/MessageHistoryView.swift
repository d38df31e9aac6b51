/// Where a history view is anchored (Telegram-iOS Postbox `HistoryViewInputAnchor`).
public enum HistoryViewInputAnchor: Hashable, Sendable {
    /// The oldest messages.
    case lowerBound
    /// The newest messages (the chat screen's usual start).
    case upperBound
    /// Around a message (around the newest messages when it is not stored).
    case message(MessageId)
    /// Around a position in history.
    case index(MessageIndex)
    /// Around the first unread incoming message of the cloud namespace (the newest when all are read).
    case unread
}

/// Messages of one album seen together in a view: the stable id of the album's first message in the window.
public struct MessageGroupInfo: Hashable, Sendable {
    public let stableId: UInt32
}

/// One message of a history view.
public struct MessageHistoryEntry: Equatable, Sendable {
    public let message: Message
    /// Whether the message is read: incoming ones by the user, outgoing ones by the other side.
    public let isRead: Bool
    /// The album the message belongs to, when it has neighbours in the window with the same grouping key.
    public let groupInfo: MessageGroupInfo?

    public var index: MessageIndex { message.index }

    public static func == (lhs: MessageHistoryEntry, rhs: MessageHistoryEntry) -> Bool {
        lhs.isRead == rhs.isRead && lhs.groupInfo == rhs.groupInfo && lhs.message.isContentEqual(to: rhs.message)
    }
}

/// A snapshot of a chat's history around an anchor (Telegram-iOS Postbox `MessageHistoryView`).
public struct MessageHistoryView: PostboxView, Equatable {
    public let peerId: PeerId
    /// Only messages carrying all of these tags, when set.
    public let tag: MessageTags?
    /// The anchor as resolved when the view opened (`.message` and `.unread` become `.index` or `.upperBound`).
    public let anchor: HistoryViewInputAnchor
    /// The window size asked for.
    public let count: Int
    /// At most `count` messages, oldest first.
    public let entries: [MessageHistoryEntry]
    /// The index just before the first entry, when older messages are stored (page up from here).
    public let earlierId: MessageIndex?
    /// The index just after the last entry, when newer messages are stored (page down from here).
    public let laterId: MessageIndex?
    /// Whether a hole (cloud namespace, the view's tag space) lies between the oldest shown cloud message and the
    /// stored message before it (or anywhere below it when none is stored): scrolling up needs the server.
    public let holeEarlier: Bool
    /// The same past the newest shown cloud message.
    public let holeLater: Bool
    /// The chat's read states.
    public let readState: CombinedPeerReadState?
}
