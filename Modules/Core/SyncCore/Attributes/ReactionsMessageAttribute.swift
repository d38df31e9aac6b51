public import Postbox
public import PostboxCoding

/// A message's reactions (Telegram-iOS `ReactionsMessageAttribute`; the message's `reactions`, `messageReactions`, and
/// `updateMessageReactions`): each emoji with its count, most first, our own with the order we chose them in; and the
/// recent reactors where the chat shows them (`can_see_list`: not in broadcast channels).
public struct ReactionsMessageAttribute: MessageAttribute, Hashable {
    /// One emoji's count (Telegram-iOS `MessageReaction`).
    public struct Reaction: Hashable, Sendable {
        public var emoticon: String
        public var count: Int32
        /// Ours, and in which order we chose it (`reactionCount.chosen_order`); `nil` when not ours.
        public var chosenOrder: Int32?

        public init(emoticon: String, count: Int32, chosenOrder: Int32? = nil) {
            self.emoticon = emoticon
            self.count = count
            self.chosenOrder = chosenOrder
        }

        public var isChosen: Bool { chosenOrder != nil }
    }

    /// Someone's recent reaction (Telegram-iOS `ReactionsMessageAttribute.RecentPeer`).
    public struct RecentPeer: Hashable, Sendable {
        public var emoticon: String
        public var peerId: PeerId
        public var isLarge: Bool
        public var isMy: Bool
        public var timestamp: Int32

        public init(emoticon: String, peerId: PeerId, isLarge: Bool, isMy: Bool, timestamp: Int32) {
            self.emoticon = emoticon
            self.peerId = peerId
            self.isLarge = isLarge
            self.isMy = isMy
            self.timestamp = timestamp
        }
    }

    public var canViewList: Bool
    public var reactions: [Reaction]
    public var recentPeers: [RecentPeer]

    public init(canViewList: Bool, reactions: [Reaction], recentPeers: [RecentPeer] = []) {
        self.canViewList = canViewList
        self.reactions = reactions
        self.recentPeers = recentPeers
    }

    /// The emoji we reacted with, in the order we chose them.
    public var chosen: [String] {
        reactions.filter(\.isChosen).sorted { ($0.chosenOrder ?? 0) < ($1.chosenOrder ?? 0) }.map(\.emoticon)
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        canViewList = decoder.decodeBoolForKey("l", orElse: false)
        let emoticons = decoder.decodeStringArrayForKey("e")
        let counts = decoder.decodeInt32ArrayForKey("c")
        let orders = decoder.decodeInt32ArrayForKey("o")
        guard counts.count == emoticons.count, orders.count == emoticons.count else {
            throw .typeMismatch(key: "e", expected: "arrays of one length")
        }
        reactions = emoticons.indices.map { index in
            Reaction(
                emoticon: emoticons[index], count: counts[index], chosenOrder: orders[index] < 0 ? nil : orders[index])
        }
        let recentEmoticons = decoder.decodeStringArrayForKey("re")
        let peers = decoder.decodeInt64ArrayForKey("rp")
        let flags = decoder.decodeInt32ArrayForKey("rf")
        let dates = decoder.decodeInt32ArrayForKey("rd")
        guard peers.count == recentEmoticons.count, flags.count == peers.count, dates.count == peers.count else {
            throw .typeMismatch(key: "rp", expected: "arrays of one length")
        }
        recentPeers = peers.indices.map { index in
            RecentPeer(
                emoticon: recentEmoticons[index], peerId: PeerId(peers[index]), isLarge: flags[index] & 1 != 0,
                isMy: flags[index] & 2 != 0, timestamp: dates[index])
        }
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeBool(canViewList, forKey: "l")
        encoder.encodeStringArray(reactions.map(\.emoticon), forKey: "e")
        encoder.encodeInt32Array(reactions.map(\.count), forKey: "c")
        encoder.encodeInt32Array(reactions.map { $0.chosenOrder ?? -1 }, forKey: "o")
        encoder.encodeStringArray(recentPeers.map(\.emoticon), forKey: "re")
        encoder.encodeInt64Array(recentPeers.map { $0.peerId.toInt64() }, forKey: "rp")
        encoder.encodeInt32Array(recentPeers.map { ($0.isLarge ? 1 : 0) | ($0.isMy ? 2 : 0) }, forKey: "rf")
        encoder.encodeInt32Array(recentPeers.map(\.timestamp), forKey: "rd")
    }
}

extension Message {
    /// The message's reactions, `nil` when it has none (Telegram-iOS `Message.effectiveReactions`).
    public var reactionsAttribute: ReactionsMessageAttribute? {
        attributes.lazy.compactMap { $0 as? ReactionsMessageAttribute }.first.flatMap {
            $0.reactions.isEmpty ? nil : $0
        }
    }
}
