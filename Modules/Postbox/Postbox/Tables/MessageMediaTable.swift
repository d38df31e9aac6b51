import PostboxCoding
import ValueBox

/// Table 6: shared media under `namespace ‖ id`, with a reference count of the messages that use it
/// (Telegram-iOS Postbox `MessageMediaTable`).
final class MessageMediaTable: Table {
    private func key(_ id: MediaId) -> ValueBoxKey {
        var key = ValueBoxKey(length: 12)
        key.setInt32(0, value: id.namespace)
        key.setInt64(4, value: id.id)
        return key
    }

    private func read(_ id: MediaId) throws -> (Int32, Media)? {
        guard let bytes = try valueBox.get(table, key: key(id)), bytes.count >= 4 else { return nil }
        let count = ValueBoxKey(Array(bytes[0..<4])).getInt32(0)
        return (count, try decodeRoot(Array(bytes[4...]), as: Media.self))
    }

    private func write(_ id: MediaId, _ count: Int32, _ media: Media) throws {
        var prefix = ValueBoxKey(length: 4)
        prefix.setInt32(0, value: count)
        try valueBox.set(table, key: key(id), value: prefix.bytes + Table.encodeRoot(media))
    }

    func get(_ id: MediaId) throws -> Media? { try read(id)?.1 }

    /// Stores `media` (replacing an older version) and counts one more reference; returns whether a different
    /// version was stored before (other messages sharing it now show the new one).
    @discardableResult
    func addReference(_ media: Media, id: MediaId) throws -> Bool {
        let previous = try read(id)
        try write(id, (previous?.0 ?? 0) + 1, media)
        return previous.map { !$0.1.isEqual(to: media) } ?? false
    }

    /// Drops one reference; removes the media when none is left.
    func removeReference(_ id: MediaId) throws {
        guard let (count, media) = try read(id) else { return }
        if count <= 1 {
            try valueBox.remove(table, key: key(id))
        } else {
            try write(id, count - 1, media)
        }
    }

    /// Replaces stored media without changing its reference count; returns whether it was stored.
    func update(_ id: MediaId, _ media: Media) throws -> Bool {
        guard let (count, _) = try read(id) else { return false }
        try write(id, count, media)
        return true
    }
}

/// Table 10: per chat and message namespace, the next locally allocated message id; a row exists for every
/// namespace a chat has used, so the namespaces of a chat are one prefix scan.
final class MessageHistoryMetadataTable: Table {
    func namespaces(_ peerId: PeerId) throws -> [Int32] {
        let prefix = Keys.peer(peerId)
        var result: [Int32] = []
        try valueBox.range(table, start: prefix, end: prefix.successor) { key in
            result.append(key.getInt32(8))
            return true
        }
        return result
    }

    func noteNamespace(_ peerId: PeerId, _ namespace: Int32, usedId: Int32) throws {
        let key = Keys.peerNamespace(peerId, namespace)
        let current = try valueBox.get(table, key: key).flatMap { $0.count == 4 ? ValueBoxKey($0).getInt32(0) : nil }
        if current == nil || current! <= usedId {
            var value = ValueBoxKey(length: 4)
            value.setInt32(0, value: usedId == Int32.max ? usedId : usedId + 1)
            try valueBox.set(table, key: key, value: value.bytes)
        }
    }

    func takeNextId(_ peerId: PeerId, _ namespace: Int32) throws -> Int32 {
        let key = Keys.peerNamespace(peerId, namespace)
        let next = try valueBox.get(table, key: key).flatMap { $0.count == 4 ? ValueBoxKey($0).getInt32(0) : nil } ?? 1
        var value = ValueBoxKey(length: 4)
        value.setInt32(0, value: next + 1)
        try valueBox.set(table, key: key, value: value.bytes)
        return next
    }
}
