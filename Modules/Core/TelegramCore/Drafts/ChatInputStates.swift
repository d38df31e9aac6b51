public import Postbox
public import PostboxCoding
public import SyncCore
public import ValueBox

/// Every chat's draft, as Postbox stores them (one preferences entry, as this Postbox has no interface-state table:
/// Telegram-iOS keeps each in its chat's `PeerChatInterfaceState`). At most `limit` drafts, the server's bound.
public struct ChatInputStates: PreferencesEntry, Equatable {
    /// The preferences key.
    public static let key = ValueBoxKey(Array("chat-input-states".utf8))
    /// At most this many drafts are kept (tg-server's `draftsLimit`); the oldest go first.
    public static let limit = 1000

    public var drafts: [PeerId: SynchronizeableChatInputState]

    public init(drafts: [PeerId: SynchronizeableChatInputState] = [:]) {
        self.drafts = drafts
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        let peers = decoder.decodeInt64ArrayForKey("p")
        let texts = decoder.decodeStringArrayForKey("t")
        let entities = decoder.decodeBytesArrayForKey("e")
        let replies = decoder.decodeInt32ArrayForKey("r")
        let flags = decoder.decodeInt32ArrayForKey("f")
        let dates = decoder.decodeInt32ArrayForKey("d")
        guard [texts.count, entities.count, replies.count, flags.count, dates.count].allSatisfy({ $0 == peers.count })
        else { throw .typeMismatch(key: "p", expected: "arrays of one length") }
        var drafts: [PeerId: SynchronizeableChatInputState] = [:]
        for index in peers.indices {
            let decoded =
                entities[index].isEmpty
                ? [] : try TextEntitiesMessageAttribute(decoder: PostboxDecoder(bytes: entities[index])).entities
            drafts[PeerId(peers[index])] = SynchronizeableChatInputState(
                text: texts[index], entities: decoded, replyToMessageId: replies[index] == 0 ? nil : replies[index],
                noWebpage: flags[index] & 1 != 0, timestamp: dates[index])
        }
        self.drafts = drafts
    }

    public func encode(_ encoder: PostboxEncoder) {
        let sorted = drafts.sorted { $0.key.toInt64() < $1.key.toInt64() }
        encoder.encodeInt64Array(sorted.map { $0.key.toInt64() }, forKey: "p")
        encoder.encodeStringArray(sorted.map(\.value.text), forKey: "t")
        encoder.encodeBytesArray(
            sorted.map { entry in
                guard !entry.value.entities.isEmpty else { return [] }
                let inner = PostboxEncoder()
                TextEntitiesMessageAttribute(entities: entry.value.entities).encode(inner)
                return inner.makeData()
            }, forKey: "e")
        encoder.encodeInt32Array(sorted.map { $0.value.replyToMessageId ?? 0 }, forKey: "r")
        encoder.encodeInt32Array(sorted.map { $0.value.noWebpage ? 1 : 0 }, forKey: "f")
        encoder.encodeInt32Array(sorted.map(\.value.timestamp), forKey: "d")
    }

    public func isEqual(to other: PreferencesEntry) -> Bool { (other as? ChatInputStates) == self }

    /// `peerId`'s draft in `tx`, if any.
    public static func draft(_ peerId: PeerId, transaction tx: Transaction) throws -> SynchronizeableChatInputState? {
        (try tx.getPreferencesEntry(key: key) as? ChatInputStates)?.drafts[peerId]
    }

    /// Every draft in `tx`.
    public static func all(transaction tx: Transaction) throws -> [PeerId: SynchronizeableChatInputState] {
        (try tx.getPreferencesEntry(key: key) as? ChatInputStates)?.drafts ?? [:]
    }

    /// Sets (or with `nil` removes) `peerId`'s draft; returns whether it changed.
    @discardableResult
    public static func set(
        _ state: SynchronizeableChatInputState?, for peerId: PeerId, transaction tx: Transaction
    ) throws -> Bool {
        var entry = try tx.getPreferencesEntry(key: key) as? ChatInputStates ?? ChatInputStates()
        guard entry.drafts[peerId] != state else { return false }
        entry.drafts[peerId] = state
        while entry.drafts.count > limit, let oldest = entry.drafts.min(by: { $0.value.timestamp < $1.value.timestamp })
        {
            entry.drafts[oldest.key] = nil
        }
        try tx.setPreferencesEntry(key: key, value: entry)
        return true
    }
}
