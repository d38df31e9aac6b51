import ValueBox

/// FTS table 41: message text under collection `p<peer>` and item `p<peer>a<namespace>b<id>`, with a `t<tag>`
/// token per tag (Telegram-iOS Postbox FTS).
final class TextIndexTable {
    let valueBox: SqliteValueBox
    let table = ValueBoxFullTextTable(id: 41)

    init(valueBox: SqliteValueBox) {
        self.valueBox = valueBox
    }

    static func collectionId(_ peerId: PeerId) -> String {
        "p\(UInt64(bitPattern: peerId.toInt64()))"
    }

    static func itemId(_ id: MessageId) -> String {
        "p\(UInt64(bitPattern: id.peerId.toInt64()))a\(id.namespace)b\(id.id)"
    }

    static func tagToken(_ tag: MessageTags) -> String { "t\(tag.rawValue)" }

    /// Parses an item id back into a message id.
    static func messageId(_ itemId: String) -> MessageId? {
        guard itemId.first == "p", let a = itemId.firstIndex(of: "a"), let b = itemId.firstIndex(of: "b") else {
            return nil
        }
        guard let peer = UInt64(itemId[itemId.index(after: itemId.startIndex)..<a]),
            let namespace = Int32(itemId[itemId.index(after: a)..<b]),
            let id = Int32(itemId[itemId.index(after: b)...])
        else { return nil }
        return MessageId(peerId: PeerId(Int64(bitPattern: peer)), namespace: namespace, id: id)
    }

    func add(_ id: MessageId, text: String, tags: MessageTags) throws {
        guard !text.isEmpty else { return }
        try valueBox.fullTextSet(
            table, collectionId: Self.collectionId(id.peerId), itemId: Self.itemId(id), contents: text,
            tags: tags.singleTags.map(Self.tagToken).joined(separator: " "))
    }

    func remove(_ id: MessageId) throws {
        try valueBox.fullTextRemove(table, itemId: Self.itemId(id))
    }

    func search(_ query: String, peerId: PeerId?, tags: MessageTags?, limit: Int) throws -> [MessageId] {
        try valueBox.fullTextMatch(
            table, collectionId: peerId.map(Self.collectionId), query: query,
            tags: tags?.singleTags.map(Self.tagToken) ?? [], limit: limit
        ).compactMap(Self.messageId)
    }
}
