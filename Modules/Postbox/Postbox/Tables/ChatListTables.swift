import ValueBox

/// A change to the chat list, recorded for views.
public enum ChatListOperation: Equatable, Sendable {
    case insert(ChatListIndex, PeerId)
    case remove(ChatListIndex, PeerId)
}

/// Table 8 (int64 keys): each chat's current place in the chat list, or none (Telegram-iOS `ChatListIndexTable`).
final class ChatListIndexTable: Table {
    struct Entry: Equatable {
        var pinningIndex: UInt16?
        var topMessageIndex: MessageIndex?

        /// The chat-list index, when the chat is listed (it has a message or is pinned).
        func index(_ peerId: PeerId) -> ChatListIndex? {
            if let topMessageIndex { return ChatListIndex(pinningIndex: pinningIndex, messageIndex: topMessageIndex) }
            if let pinningIndex {
                return ChatListIndex(
                    pinningIndex: pinningIndex,
                    messageIndex: MessageIndex(id: MessageId(peerId: peerId, namespace: 0, id: 0), timestamp: 0))
            }
            return nil
        }
    }

    func get(_ peerId: PeerId) throws -> Entry {
        guard let bytes = try valueBox.get(table, key: Keys.peer(peerId)), bytes.count == 16 else {
            return Entry(pinningIndex: nil, topMessageIndex: nil)
        }
        let value = ValueBoxKey(bytes)
        let pinning = value.getUInt16(0)
        let hasTop = value.getUInt8(2) != 0
        return Entry(
            pinningIndex: pinning == UInt16.max ? nil : pinning,
            topMessageIndex: hasTop
                ? MessageIndex(
                    id: MessageId(peerId: peerId, namespace: Int32(value.getInt8(3)), id: value.getInt32(4)),
                    timestamp: value.getInt32(8))
                : nil)
    }

    func set(_ peerId: PeerId, _ entry: Entry) throws {
        var value = ValueBoxKey(length: 16)
        value.setUInt16(0, value: entry.pinningIndex ?? UInt16.max)
        if let top = entry.topMessageIndex {
            value.setUInt8(2, value: 1)
            value.setInt8(3, value: Int8(truncatingIfNeeded: top.id.namespace))
            value.setInt32(4, value: top.id.id)
            value.setInt32(8, value: top.timestamp)
        }
        try valueBox.set(table, key: Keys.peer(peerId), value: value.bytes)
    }

    /// Every pinned chat with its pinning index.
    func pinned() throws -> [(PeerId, UInt16)] {
        var result: [(PeerId, UInt16)] = []
        try valueBox.scan(table) { key, value in
            guard value.count == 16 else { return true }
            let pinning = ValueBoxKey(value).getUInt16(0)
            if pinning != UInt16.max { result.append((PeerId(key.getInt64(0)), pinning)) }
            return true
        }
        return result.sorted { $0.1 < $1.1 }
    }
}

/// Table 9: the ordered chat list under `groupId ‖ pinningIndex ‖ timestamp ‖ namespace ‖ id ‖ peerId`
/// (Telegram-iOS Postbox `ChatListTable`). Pinned chats store `UInt16.max - pinningIndex`, unpinned ones 0, so a
/// descending scan lists pinned chats first and then the others newest first.
final class ChatListTable: Table {
    static let groupId: Int32 = 0

    static func key(_ index: ChatListIndex) -> ValueBoxKey {
        var key = ValueBoxKey(length: 23)
        key.setInt32(0, value: groupId)
        key.setUInt16(4, value: index.pinningIndex.map { UInt16.max - 1 - $0 } ?? 0)
        key.setInt32(6, value: index.messageIndex.timestamp)
        key.setInt8(10, value: Int8(truncatingIfNeeded: index.messageIndex.id.namespace))
        key.setInt32(11, value: index.messageIndex.id.id)
        key.setInt64(15, value: index.messageIndex.id.peerId.toInt64())
        return key
    }

    static func index(_ key: ValueBoxKey) -> ChatListIndex {
        let pinning = key.getUInt16(4)
        let peerId = PeerId(key.getInt64(15))
        return ChatListIndex(
            pinningIndex: pinning == 0 ? nil : UInt16.max - 1 - pinning,
            messageIndex: MessageIndex(
                id: MessageId(peerId: peerId, namespace: Int32(key.getInt8(10)), id: key.getInt32(11)),
                timestamp: key.getInt32(6)))
    }

    func add(_ index: ChatListIndex) throws { try valueBox.set(table, key: Self.key(index), value: []) }
    func remove(_ index: ChatListIndex) throws { try valueBox.remove(table, key: Self.key(index)) }

    /// Up to `count` entries below `before` (exclusive; from the top when `nil`), greatest first.
    func entries(before: ChatListIndex?, count: Int) throws -> [ChatListIndex] {
        var prefix = ValueBoxKey(length: 4)
        prefix.setInt32(0, value: Self.groupId)
        var result: [ChatListIndex] = []
        try valueBox.range(table, start: before.map(Self.key) ?? prefix.successor, end: prefix, limit: count) { key in
            result.append(Self.index(key))
            return true
        }
        return result
    }

    /// Up to `count` entries above `after` (exclusive), smallest first.
    func entries(after: ChatListIndex, count: Int) throws -> [ChatListIndex] {
        var prefix = ValueBoxKey(length: 4)
        prefix.setInt32(0, value: Self.groupId)
        var result: [ChatListIndex] = []
        try valueBox.range(table, start: Self.key(after), end: prefix.successor, limit: count) { key in
            result.append(Self.index(key))
            return true
        }
        return result
    }
}
