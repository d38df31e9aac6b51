import Foundation
public import Postbox
import PostboxCoding
import SyncCore
import ValueBox

/// A read or a delete whose local change is made and whose server call is not confirmed yet (Telegram-iOS keeps these
/// as Postbox operations: `SynchronizePeerReadState`, `CloudChatRemoveMessagesOperation`). They are stored in the same
/// transaction as the local change, so a restart sends them; `MessageActionQueue` sends them in order.
public enum PendingMessageAction: Equatable, Sendable {
    /// `messages.readHistory` up to `maxId` (`channels.readHistory` in a channel or supergroup).
    case readHistory(peerId: PeerId, maxId: Int32)
    /// `messages.deleteMessages` of these cloud ids (`revoke` with `forEveryone`).
    case deleteMessages(ids: [Int32], forEveryone: Bool)
    /// `messages.readMessageContents` of these cloud ids: voice notes listened to.
    case readMessageContents(ids: [Int32])
    /// `channels.deleteMessages` of these cloud ids in one channel or supergroup (always for everyone: a channel's
    /// messages are one copy, core.telegram.org/method/channels.deleteMessages).
    case deleteChannelMessages(channelId: Int64, ids: [Int32])

    /// At most this many ids in one stored delete (the server's limit per call is 100; longer lists are split).
    static let maxIds = 100

    /// The stored form: a kind byte, then little-endian fields.
    var encoded: [UInt8] {
        switch self {
        case .readHistory(let peerId, let maxId):
            return [0] + Self.le(UInt64(bitPattern: peerId.toInt64()), 8)
                + Self.le(UInt64(UInt32(bitPattern: maxId)), 4)
        case .deleteMessages(let ids, let forEveryone):
            return [1, forEveryone ? 1 : 0] + ids.flatMap { Self.le(UInt64(UInt32(bitPattern: $0)), 4) }
        case .readMessageContents(let ids):
            return [2] + ids.flatMap { Self.le(UInt64(UInt32(bitPattern: $0)), 4) }
        case .deleteChannelMessages(let channelId, let ids):
            return [3] + Self.le(UInt64(bitPattern: channelId), 8)
                + ids.flatMap { Self.le(UInt64(UInt32(bitPattern: $0)), 4) }
        }
    }

    /// The action `bytes` store; nil for bytes no version of this type wrote.
    init?(encoded bytes: [UInt8]) {
        guard let kind = bytes.first else { return nil }
        switch kind {
        case 0 where bytes.count == 13:
            self = .readHistory(
                peerId: PeerId(Int64(bitPattern: Self.read(bytes, 1, 8))),
                maxId: Int32(bitPattern: UInt32(Self.read(bytes, 9, 4))))
        case 1 where bytes.count >= 2 && (bytes.count - 2) % 4 == 0 && (bytes.count - 2) / 4 <= Self.maxIds:
            let ids = stride(from: 2, to: bytes.count, by: 4).map { Int32(bitPattern: UInt32(Self.read(bytes, $0, 4))) }
            self = .deleteMessages(ids: ids, forEveryone: bytes[1] != 0)
        case 2 where (bytes.count - 1) % 4 == 0 && (bytes.count - 1) / 4 <= Self.maxIds:
            let ids = stride(from: 1, to: bytes.count, by: 4).map { Int32(bitPattern: UInt32(Self.read(bytes, $0, 4))) }
            self = .readMessageContents(ids: ids)
        case 3 where bytes.count >= 9 && (bytes.count - 9) % 4 == 0 && (bytes.count - 9) / 4 <= Self.maxIds:
            let ids = stride(from: 9, to: bytes.count, by: 4).map { Int32(bitPattern: UInt32(Self.read(bytes, $0, 4))) }
            self = .deleteChannelMessages(channelId: Int64(bitPattern: Self.read(bytes, 1, 8)), ids: ids)
        default:
            return nil
        }
    }

    private static func le(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
    private static func read(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt64 {
        (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }
}

/// The queue as Postbox stores it (a preferences entry): each action with its sequence number.
struct PendingMessageActionsEntry: PreferencesEntry, Equatable {
    static let key = ValueBoxKey(Array("pending-message-actions".utf8))

    var actions: [(id: Int64, action: PendingMessageAction)]
    var nextId: Int64

    init(actions: [(id: Int64, action: PendingMessageAction)] = [], nextId: Int64 = 1) {
        self.actions = actions
        self.nextId = nextId
    }

    init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        let ids = decoder.decodeInt64ArrayForKey("i")
        let bytes = decoder.decodeBytesArrayForKey("a")
        // An action this build cannot read is dropped rather than blocking the queue.
        actions = zip(ids, bytes).compactMap { id, encoded in PendingMessageAction(encoded: encoded).map { (id, $0) } }
        nextId = decoder.decodeInt64ForKey("n", orElse: (ids.max() ?? 0) + 1)
    }

    func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt64Array(actions.map(\.id), forKey: "i")
        encoder.encodeBytesArray(actions.map(\.action.encoded), forKey: "a")
        encoder.encodeInt64(nextId, forKey: "n")
    }

    func isEqual(to other: PreferencesEntry) -> Bool { (other as? PendingMessageActionsEntry) == self }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.nextId == rhs.nextId && lhs.actions.map(\.id) == rhs.actions.map(\.id)
            && lhs.actions.map(\.action) == rhs.actions.map(\.action)
    }

    /// Appends `action` inside `tx`; returns its sequence number.
    static func append(_ action: PendingMessageAction, transaction tx: Transaction) throws -> Int64 {
        var entry = try tx.getPreferencesEntry(key: key) as? PendingMessageActionsEntry ?? PendingMessageActionsEntry()
        let id = entry.nextId
        entry.actions.append((id, action))
        entry.nextId += 1
        try tx.setPreferencesEntry(key: key, value: entry)
        return id
    }

    /// Removes action `id` inside `tx`.
    static func remove(_ id: Int64, transaction tx: Transaction) throws {
        guard var entry = try tx.getPreferencesEntry(key: key) as? PendingMessageActionsEntry else { return }
        entry.actions.removeAll { $0.id == id }
        try tx.setPreferencesEntry(key: key, value: entry)
    }

    /// The first action waiting, if any.
    static func first(transaction tx: Transaction) throws -> (id: Int64, action: PendingMessageAction)? {
        (try tx.getPreferencesEntry(key: key) as? PendingMessageActionsEntry)?.actions.first
    }
}
