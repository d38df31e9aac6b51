import PostboxCoding
import ValueBox

/// Table 2 (int64 keys): peers by id (Telegram-iOS Postbox `PeerTable`).
final class PeerTable: Table {
    func get(_ peerId: PeerId) throws -> Peer? {
        guard let bytes = try valueBox.get(table, key: Keys.peer(peerId)) else { return nil }
        return try decodeRoot(bytes, as: Peer.self)
    }

    func set(_ peer: Peer) throws {
        try valueBox.set(table, key: Keys.peer(peer.id), value: Table.encodeRoot(peer))
    }

    func all() throws -> [Peer] {
        var result: [Peer] = []
        var failure: Error?
        try valueBox.scan(table) { _, value in
            do { result.append(try decodeRoot(value, as: Peer.self)) } catch { failure = error; return false }
            return true
        }
        if let failure { throw failure }
        return result
    }
}

/// Table 20 (int64 keys): peer presences (Telegram-iOS Postbox `PeerPresenceTable`).
final class PeerPresenceTable: Table {
    func get(_ peerId: PeerId) throws -> PeerPresence? {
        guard let bytes = try valueBox.get(table, key: Keys.peer(peerId)) else { return nil }
        return try decodeRoot(bytes, as: PeerPresence.self)
    }

    func set(_ peerId: PeerId, _ presence: PeerPresence) throws {
        try valueBox.set(table, key: Keys.peer(peerId), value: Table.encodeRoot(presence))
    }
}

/// Table 35: preferences entries under binary keys (Telegram-iOS Postbox Preferences).
final class PreferencesTable: Table {
    func get(_ key: ValueBoxKey) throws -> PreferencesEntry? {
        guard let bytes = try valueBox.get(table, key: key) else { return nil }
        return try decodeRoot(bytes, as: PreferencesEntry.self)
    }

    func set(_ key: ValueBoxKey, _ entry: PreferencesEntry?) throws {
        if let entry {
            try valueBox.set(table, key: key, value: Table.encodeRoot(entry))
        } else {
            try valueBox.remove(table, key: key)
        }
    }
}

/// Table 11: ids of messages not yet sent (Telegram-iOS Postbox `MessageHistoryUnsentTable`).
final class UnsentTable: Table {
    func add(_ id: MessageId) throws { try valueBox.set(table, key: Keys.messageId(id), value: []) }
    func remove(_ id: MessageId) throws { try valueBox.remove(table, key: Keys.messageId(id)) }

    func all() throws -> [MessageId] {
        var result: [MessageId] = []
        try valueBox.scan(table) { key, _ in
            result.append(Keys.messageIdFromKey(key))
            return true
        }
        return result
    }
}

/// Table 32: (peer, globally unique id) → message id, to find a sent message by its random id.
final class GloballyUniqueIdTable: Table {
    private func key(_ peerId: PeerId, _ globallyUniqueId: Int64) -> ValueBoxKey {
        var key = ValueBoxKey(length: 16)
        key.setInt64(0, value: peerId.toInt64())
        key.setInt64(8, value: globallyUniqueId)
        return key
    }

    func set(_ globallyUniqueId: Int64, _ id: MessageId) throws {
        var value = ValueBoxKey(length: 8)
        value.setInt32(0, value: id.namespace)
        value.setInt32(4, value: id.id)
        try valueBox.set(table, key: key(id.peerId, globallyUniqueId), value: value.bytes)
    }

    func get(_ peerId: PeerId, _ globallyUniqueId: Int64) throws -> MessageId? {
        guard let bytes = try valueBox.get(table, key: key(peerId, globallyUniqueId)), bytes.count == 8 else {
            return nil
        }
        let value = ValueBoxKey(bytes)
        return MessageId(peerId: peerId, namespace: value.getInt32(0), id: value.getInt32(4))
    }

    func remove(_ peerId: PeerId, _ globallyUniqueId: Int64) throws {
        try valueBox.remove(table, key: key(peerId, globallyUniqueId))
    }
}
