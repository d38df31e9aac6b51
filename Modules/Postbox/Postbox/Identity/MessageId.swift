/// A message's identity: its peer, a message namespace (Cloud 0, Local 1, …) and the id in that namespace
/// (Telegram-iOS Postbox).
public struct MessageId: Hashable, Comparable, Sendable, CustomStringConvertible {
    public typealias Namespace = Int32
    public typealias Id = Int32

    public let peerId: PeerId
    public let namespace: Namespace
    public let id: Id

    public init(peerId: PeerId, namespace: Namespace, id: Id) {
        self.peerId = peerId
        self.namespace = namespace
        self.id = id
    }

    /// Orders by namespace, then id, then peer.
    public static func < (lhs: MessageId, rhs: MessageId) -> Bool {
        if lhs.namespace != rhs.namespace { return lhs.namespace < rhs.namespace }
        if lhs.id != rhs.id { return lhs.id < rhs.id }
        return lhs.peerId < rhs.peerId
    }

    /// "peer:ns_id", as Telegram prints it.
    public var description: String { "\(peerId):\(namespace)_\(id)" }
}

/// A message's place in history: its id and timestamp (Telegram-iOS Postbox `MessageIndex`).
public struct MessageIndex: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let id: MessageId
    public let timestamp: Int32

    public init(id: MessageId, timestamp: Int32) {
        self.id = id
        self.timestamp = timestamp
    }

    /// The smallest index of `peerId` (a lower bound for ranges).
    public static func lowerBound(peerId: PeerId) -> MessageIndex {
        MessageIndex(id: MessageId(peerId: peerId, namespace: 0, id: 0), timestamp: 0)
    }

    /// The largest index of `peerId` (an upper bound for ranges).
    public static func upperBound(peerId: PeerId) -> MessageIndex {
        MessageIndex(id: MessageId(peerId: peerId, namespace: Int32.max, id: Int32.max), timestamp: Int32.max)
    }

    /// Orders by timestamp, then namespace, then id, then peer.
    public static func < (lhs: MessageIndex, rhs: MessageIndex) -> Bool {
        if lhs.timestamp != rhs.timestamp { return lhs.timestamp < rhs.timestamp }
        if lhs.id.namespace != rhs.id.namespace { return lhs.id.namespace < rhs.id.namespace }
        if lhs.id.id != rhs.id.id { return lhs.id.id < rhs.id.id }
        return lhs.id.peerId < rhs.id.peerId
    }

    public var description: String { "\(id)@\(timestamp)" }
}

/// A chat's place in the chat list: pinned chats first (smaller pinning index first), then by last message
/// (Telegram-iOS Postbox `ChatListIndex`).
public struct ChatListIndex: Hashable, Comparable, Sendable {
    public let pinningIndex: UInt16?
    public let messageIndex: MessageIndex

    public init(pinningIndex: UInt16?, messageIndex: MessageIndex) {
        self.pinningIndex = pinningIndex
        self.messageIndex = messageIndex
    }

    /// Ascending order; the chat list shows the greatest first. A pinned index is greater than any unpinned one,
    /// and among pinned ones the smaller pinning index is greater.
    public static func < (lhs: ChatListIndex, rhs: ChatListIndex) -> Bool {
        switch (lhs.pinningIndex, rhs.pinningIndex) {
        case (nil, nil): return lhs.messageIndex < rhs.messageIndex
        case (nil, .some): return true
        case (.some, nil): return false
        case let (.some(left), .some(right)):
            if left != right { return left > right }
            return lhs.messageIndex < rhs.messageIndex
        }
    }
}

/// A media object's identity (namespace, id) (Telegram-iOS Postbox `MediaId`).
public struct MediaId: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let namespace: Int32
    public let id: Int64

    public init(namespace: Int32, id: Int64) {
        self.namespace = namespace
        self.id = id
    }

    public static func < (lhs: MediaId, rhs: MediaId) -> Bool {
        lhs.namespace != rhs.namespace ? lhs.namespace < rhs.namespace : lhs.id < rhs.id
    }

    public var description: String { "\(namespace)_\(id)" }
}
