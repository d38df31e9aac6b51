public import Buffers
public import PostboxCoding
import ValueBox

/// The contents of an ordered-list item.
public protocol OrderedItemListEntryContents: PostboxCoding, Sendable {}

/// One item of an ordered list (recent stickers, saved GIFs, …): a binary id and its contents.
public struct OrderedItemListEntry: Sendable {
    public let id: MemoryBuffer
    public let contents: OrderedItemListEntryContents

    public init(id: MemoryBuffer, contents: OrderedItemListEntryContents) {
        self.id = id
        self.contents = contents
    }
}

/// Table 38: each collection's ordered list, stored as one record of (id, contents) pairs in order
/// (Telegram-iOS Postbox OrderedItemList).
final class OrderedItemListTable: Table {
    private func key(_ collectionId: Int32) -> ValueBoxKey {
        var key = ValueBoxKey(length: 4)
        key.setInt32(0, value: collectionId)
        return key
    }

    func items(_ collectionId: Int32) throws -> [OrderedItemListEntry] {
        guard let bytes = try valueBox.get(table, key: key(collectionId)) else { return [] }
        do {
            let decoder = try PostboxDecoder(bytes: bytes)
            let ids = decoder.decodeBytesArrayForKey("i")
            let contents = try decoder.decodeObjectArrayForKey("c")
            guard ids.count == contents.count else {
                throw PostboxError.undecodableRecord(table: table.id, detail: "ids and contents differ in count")
            }
            return try zip(ids, contents).map { id, object in
                guard let sendable = object as? OrderedItemListEntryContents else {
                    throw PostboxError.undecodableRecord(table: table.id, detail: "contents not Sendable")
                }
                return OrderedItemListEntry(id: MemoryBuffer(id), contents: sendable)
            }
        } catch let error as PostboxDecodingError {
            throw PostboxError.undecodableRecord(table: table.id, detail: error.description)
        }
    }

    func replace(_ collectionId: Int32, _ items: [OrderedItemListEntry]) throws {
        if items.isEmpty {
            try valueBox.remove(table, key: key(collectionId))
            return
        }
        let encoder = PostboxEncoder()
        encoder.encodeBytesArray(items.map(\.id.bytes), forKey: "i")
        encoder.encodeObjectArray(items.map(\.contents), forKey: "c")
        try valueBox.set(table, key: key(collectionId), value: encoder.makeData())
    }
}
