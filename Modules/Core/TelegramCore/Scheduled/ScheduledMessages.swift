public import Postbox
public import PostboxCoding
public import SyncCore
import SyncCoreApi
public import TelegramApi
public import ValueBox

/// One scheduled message as the account keeps it: its id in `Namespaces.Message.scheduledCloud`, when it is to be
/// sent, and its text.
public struct ScheduledMessage: Equatable, Sendable {
    public var id: MessageId
    /// When the server is to send it (Unix time).
    public var date: Int32
    public var text: String

    public init(id: MessageId, date: Int32, text: String) {
        self.id = id
        self.date = date
        self.text = text
    }
}

/// The account's scheduled messages, per chat, as Postbox stores them: one preferences entry, apart from the chats'
/// histories (Telegram-iOS stores them in the history under `Namespaces.Message.ScheduledCloud` and keeps that
/// namespace out of the chat's own view; this Postbox's history has no such filter). Filled from the answers of
/// `Account.scheduleMessage` and `Account.refreshScheduledMessages`, and by `updateNewScheduledMessage` /
/// `updateDeleteScheduledMessages`. At most `perChatLimit` per chat, the server's bound.
public struct ScheduledMessages: PreferencesEntry, Equatable {
    /// The preferences key.
    public static let key = ValueBoxKey(Array("scheduled-messages".utf8))
    /// tg-server's (and Telegram's) bound: at most 100 scheduled messages per chat.
    public static let perChatLimit = 100

    /// Every chat's scheduled messages, soonest first.
    public var chats: [PeerId: [ScheduledMessage]]

    public init(chats: [PeerId: [ScheduledMessage]] = [:]) {
        self.chats = chats
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        let peers = decoder.decodeInt64ArrayForKey("p")
        let ids = decoder.decodeInt32ArrayForKey("i")
        let dates = decoder.decodeInt32ArrayForKey("d")
        let texts = decoder.decodeStringArrayForKey("t")
        guard [ids.count, dates.count, texts.count].allSatisfy({ $0 == peers.count }) else {
            throw .typeMismatch(key: "p", expected: "arrays of one length")
        }
        var chats: [PeerId: [ScheduledMessage]] = [:]
        for index in peers.indices {
            let peerId = PeerId(peers[index])
            chats[peerId, default: []].append(
                ScheduledMessage(
                    id: MessageId(peerId: peerId, namespace: Namespaces.Message.scheduledCloud, id: ids[index]),
                    date: dates[index], text: texts[index]))
        }
        self.chats = chats
    }

    public func encode(_ encoder: PostboxEncoder) {
        let all = chats.sorted { $0.key.toInt64() < $1.key.toInt64() }.flatMap(\.value)
        encoder.encodeInt64Array(all.map { $0.id.peerId.toInt64() }, forKey: "p")
        encoder.encodeInt32Array(all.map(\.id.id), forKey: "i")
        encoder.encodeInt32Array(all.map(\.date), forKey: "d")
        encoder.encodeStringArray(all.map(\.text), forKey: "t")
    }

    public func isEqual(to other: PreferencesEntry) -> Bool { (other as? ScheduledMessages) == self }

    /// `peerId`'s scheduled messages in `tx`, soonest first.
    public static func messages(_ peerId: PeerId, transaction tx: Transaction) throws -> [ScheduledMessage] {
        (try tx.getPreferencesEntry(key: key) as? ScheduledMessages)?.chats[peerId] ?? []
    }

    /// Adds (or replaces, by id) `message`; returns whether anything changed.
    @discardableResult
    public static func add(_ message: ScheduledMessage, transaction tx: Transaction) throws -> Bool {
        var entry = try tx.getPreferencesEntry(key: key) as? ScheduledMessages ?? ScheduledMessages()
        var list = entry.chats[message.id.peerId] ?? []
        guard !list.contains(message) else { return false }
        list.removeAll { $0.id == message.id }
        list.append(message)
        list.sort { ($0.date, $0.id.id) < ($1.date, $1.id.id) }
        entry.chats[message.id.peerId] = Array(list.prefix(perChatLimit))
        try tx.setPreferencesEntry(key: key, value: entry)
        return true
    }

    /// Removes `peerId`'s scheduled messages `ids`; returns the ids that were there.
    @discardableResult
    public static func remove(_ ids: [Int32], in peerId: PeerId, transaction tx: Transaction) throws -> [MessageId] {
        var entry = try tx.getPreferencesEntry(key: key) as? ScheduledMessages ?? ScheduledMessages()
        let list = entry.chats[peerId] ?? []
        let removed = list.filter { ids.contains($0.id.id) }.map(\.id)
        guard !removed.isEmpty else { return [] }
        let kept = list.filter { !ids.contains($0.id.id) }
        entry.chats[peerId] = kept.isEmpty ? nil : kept
        try tx.setPreferencesEntry(key: key, value: entry)
        return removed
    }

    /// Replaces `peerId`'s scheduled messages with `messages`.
    public static func replace(_ messages: [ScheduledMessage], in peerId: PeerId, transaction tx: Transaction) throws {
        var entry = try tx.getPreferencesEntry(key: key) as? ScheduledMessages ?? ScheduledMessages()
        let sorted = messages.sorted { ($0.date, $0.id.id) < ($1.date, $1.id.id) }
        entry.chats[peerId] = sorted.isEmpty ? nil : Array(sorted.prefix(perChatLimit))
        try tx.setPreferencesEntry(key: key, value: entry)
    }

    /// A scheduled message from the server's `message` (one with `from_scheduled`), if it is a text message.
    public static func message(_ message: Api.Message) -> ScheduledMessage? {
        guard case .message(let body) = message else { return nil }
        let peerId = PeerId(body.peerId)
        return ScheduledMessage(
            id: MessageId(peerId: peerId, namespace: Namespaces.Message.scheduledCloud, id: body.id), date: body.date,
            text: body.message)
    }
}
