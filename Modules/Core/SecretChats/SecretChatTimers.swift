/// Self-destructing messages (core.telegram.org "End-to-End Encryption": `ttl` of `decryptedMessage`; Telegram-iOS
/// `SetSecretChatMessageAutoremoveTimeoutInteractively.swift`), without I/O or clocks: a message with a TTL waits
/// until it is read — an incoming one when this side reads the chat, an outgoing one when the other side's read
/// (`updateEncryptedMessagesRead`) covers its date — and is deleted `ttl` seconds after that, on both sides. The
/// value is stored with the chat, so timers survive a restart; the shell sleeps until `nextDeadline` and deletes
/// what `removeDue(now:)` returns.
public struct SecretChatTimers: Sendable, Codable, Equatable {
    public struct Entry: Sendable, Codable, Equatable {
        /// The message, as the shell identifies it (Postbox namespace and id).
        public let namespace: Int32
        public let id: Int32
        public let incoming: Bool
        /// When the message was sent.
        public let date: Int32
        public let ttl: Int32
        /// When it goes; nil until read.
        public var deadline: Int32?
    }

    public private(set) var entries: [Entry] = []

    public init() {}

    /// Adds a message with a TTL (a TTL of zero or less never destructs, and is not added).
    public mutating func add(namespace: Int32, id: Int32, incoming: Bool, date: Int32, ttl: Int32) {
        guard ttl > 0, !entries.contains(where: { $0.namespace == namespace && $0.id == id }) else { return }
        entries.append(Entry(namespace: namespace, id: id, incoming: incoming, date: date, ttl: ttl))
    }

    /// This side read the chat: every incoming message's timer starts now.
    public mutating func readIncoming(now: Int32) {
        for index in entries.indices where entries[index].incoming && entries[index].deadline == nil {
            entries[index].deadline = now + entries[index].ttl
        }
    }

    /// The other side read up to `maxDate`: outgoing messages sent until then start now.
    public mutating func readOutgoing(maxDate: Int32, now: Int32) {
        for index in entries.indices
        where !entries[index].incoming && entries[index].deadline == nil && entries[index].date <= maxDate {
            entries[index].deadline = now + entries[index].ttl
        }
    }

    /// Forgets the timers of messages deleted before their time (a delete notice, a cleared history).
    public mutating func remove(_ messages: [(namespace: Int32, id: Int32)]) {
        entries.removeAll { entry in messages.contains { $0.namespace == entry.namespace && $0.id == entry.id } }
    }

    /// The earliest deadline, if any timer runs.
    public var nextDeadline: Int32? { entries.compactMap(\.deadline).min() }

    /// Removes and returns the messages whose time has come.
    public mutating func removeDue(now: Int32) -> [Entry] {
        let due = entries.filter { ($0.deadline ?? .max) <= now }
        entries.removeAll { ($0.deadline ?? .max) <= now }
        return due
    }
}
