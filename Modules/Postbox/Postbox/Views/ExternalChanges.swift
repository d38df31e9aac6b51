import PostboxCoding
import ValueBox

/// What a committed write transaction touched, in the coarse terms views need to decide whether to reload after
/// another process wrote. Every write transaction stores one in the change log (table 90) under its transaction
/// state version; a process that finds the counter moved merges the entries it missed.
///
/// Telegram-iOS refreshes every open view after an external write (`Postbox.swift`
/// `refreshViewsDueToExternalTransaction`); the log lets us refresh only the views the write affected.
struct ExternalChanges: Sendable {
    /// The log did not cover the versions missed: every view reloads.
    var everything = false
    /// Chats whose history, holes, read state or top message changed.
    var historyPeers: Set<PeerId> = []
    var chatList = false
    var peers: Set<PeerId> = []
    var presences: Set<PeerId> = []
    var readStates: Set<PeerId> = []
    var preferences: Set<ValueBoxKey> = []
    var orderedItemLists: Set<Int32> = []
    var unsent = false
    var contacts = false
    var media: Set<MediaId> = []

    /// Above this many chats or peers a summary says "everything" instead (a bulk import touches most views anyway).
    static let peerLimit = 512

    init(everything: Bool = false) {
        self.everything = everything
    }

    /// The summary of one transaction's operations.
    init(_ operations: PostboxTransaction) {
        historyPeers = Set(operations.currentOperationsByPeerId.keys)
        for key in operations.holeOperations.keys { historyPeers.insert(key.peerId) }
        chatList = !operations.chatListOperations.isEmpty
        peers = Set(operations.updatedPeers.keys)
        presences = Set(operations.updatedPeerPresences.keys)
        readStates = Set(operations.updatedReadStates.keys)
        preferences = Set(operations.updatedPreferences.keys)
        orderedItemLists = operations.updatedOrderedItemLists
        unsent = !operations.unsentOperations.isEmpty
        contacts = operations.updatedContacts
        media = Set(operations.updatedMedia.keys)
        if historyPeers.count + peers.count + presences.count > Self.peerLimit { everything = true }
    }

    /// Adds what `other` touched.
    mutating func formUnion(_ other: ExternalChanges) {
        everything = everything || other.everything
        historyPeers.formUnion(other.historyPeers)
        chatList = chatList || other.chatList
        peers.formUnion(other.peers)
        presences.formUnion(other.presences)
        readStates.formUnion(other.readStates)
        preferences.formUnion(other.preferences)
        orderedItemLists.formUnion(other.orderedItemLists)
        unsent = unsent || other.unsent
        contacts = contacts || other.contacts
        media.formUnion(other.media)
    }

    /// Whether a view of `peerId`'s history (which shows messages by `authors` with `mediaIds`) must reload.
    func affectsHistory(of peerId: PeerId, authors: Set<PeerId>, mediaIds: Set<MediaId>) -> Bool {
        everything || historyPeers.contains(peerId) || readStates.contains(peerId) || !peers.isDisjoint(with: authors)
            || !media.isDisjoint(with: mediaIds)
    }

    func encode() -> [UInt8] {
        let encoder = PostboxEncoder()
        encoder.encodeBool(everything, forKey: "e")
        if !everything {
            encoder.encodeInt64Array(historyPeers.map { $0.toInt64() }, forKey: "h")
            encoder.encodeBool(chatList, forKey: "c")
            encoder.encodeInt64Array(peers.map { $0.toInt64() }, forKey: "p")
            encoder.encodeInt64Array(presences.map { $0.toInt64() }, forKey: "r")
            encoder.encodeInt64Array(readStates.map { $0.toInt64() }, forKey: "s")
            encoder.encodeBytesArray(preferences.map(\.bytes), forKey: "f")
            encoder.encodeInt32Array(Array(orderedItemLists), forKey: "o")
            encoder.encodeBool(unsent, forKey: "u")
            encoder.encodeBool(contacts, forKey: "ct")
            encoder.encodeInt32Array(media.map(\.namespace), forKey: "mn")
            encoder.encodeInt64Array(media.map(\.id), forKey: "mi")
        }
        return encoder.makeData()
    }

    /// Decodes a stored summary; damaged bytes decode as "everything" (reloading is always safe).
    static func decode(_ bytes: [UInt8]) -> ExternalChanges {
        guard let decoder = try? PostboxDecoder(bytes: bytes) else { return ExternalChanges(everything: true) }
        var changes = ExternalChanges(everything: decoder.decodeBoolForKey("e", orElse: true))
        if changes.everything { return changes }
        changes.historyPeers = Set(decoder.decodeInt64ArrayForKey("h").map(PeerId.init))
        changes.chatList = decoder.decodeBoolForKey("c", orElse: true)
        changes.peers = Set(decoder.decodeInt64ArrayForKey("p").map(PeerId.init))
        changes.presences = Set(decoder.decodeInt64ArrayForKey("r").map(PeerId.init))
        changes.readStates = Set(decoder.decodeInt64ArrayForKey("s").map(PeerId.init))
        changes.preferences = Set(decoder.decodeBytesArrayForKey("f").map(ValueBoxKey.init))
        changes.orderedItemLists = Set(decoder.decodeInt32ArrayForKey("o"))
        changes.unsent = decoder.decodeBoolForKey("u", orElse: true)
        changes.contacts = decoder.decodeBoolForKey("ct", orElse: true)
        let namespaces = decoder.decodeInt32ArrayForKey("mn")
        let ids = decoder.decodeInt64ArrayForKey("mi")
        guard namespaces.count == ids.count else { return ExternalChanges(everything: true) }
        changes.media = Set(zip(namespaces, ids).map { MediaId(namespace: $0, id: $1) })
        return changes
    }
}
