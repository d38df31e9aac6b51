import PostboxCoding
import ValueBox

/// A Postbox table over one value box table (Telegram-iOS Postbox `Table`).
class Table {
    let valueBox: SqliteValueBox
    let table: ValueBoxTable

    init(valueBox: SqliteValueBox, table: ValueBoxTable) {
        self.valueBox = valueBox
        self.table = table
    }

    /// Encodes `object` as a root object.
    static func encodeRoot(_ object: PostboxCoding) -> [UInt8] {
        let encoder = PostboxEncoder()
        encoder.encodeRootObject(object)
        return encoder.makeData()
    }

    /// Decodes a root object as `T`, reporting the table on failure.
    func decodeRoot<T>(_ bytes: [UInt8], as _: T.Type) throws -> T {
        do {
            guard let object = try PostboxDecoder.decodeRoot(bytes) as? T else {
                throw PostboxError.undecodableRecord(table: table.id, detail: "root object is not \(T.self)")
            }
            return object
        } catch let error as PostboxDecodingError {
            throw PostboxError.undecodableRecord(table: table.id, detail: error.description)
        }
    }
}

/// Big-endian key builders for the key layouts of Telegram-iOS's Postbox tables.
enum Keys {
    static func peer(_ peerId: PeerId) -> ValueBoxKey {
        ValueBoxKey(int64: peerId.toInt64())
    }

    static func peerNamespace(_ peerId: PeerId, _ namespace: Int32) -> ValueBoxKey {
        var key = ValueBoxKey(length: 12)
        key.setInt64(0, value: peerId.toInt64())
        key.setInt32(8, value: namespace)
        return key
    }

    static func messageId(_ id: MessageId) -> ValueBoxKey {
        var key = ValueBoxKey(length: 16)
        key.setInt64(0, value: id.peerId.toInt64())
        key.setInt32(8, value: id.namespace)
        key.setInt32(12, value: id.id)
        return key
    }

    static func messageIdFromKey(_ key: ValueBoxKey) -> MessageId {
        MessageId(peerId: PeerId(key.getInt64(0)), namespace: key.getInt32(8), id: key.getInt32(12))
    }
}
