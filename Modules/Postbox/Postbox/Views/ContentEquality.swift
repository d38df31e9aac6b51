/// Content comparison of stored values whose protocols define their own equality, used by view snapshots to
/// decide whether anything a subscriber sees changed.
extension Message {
    /// Whether `other` shows the same message: identity, version, fields, author and shared media. Attributes are
    /// covered by `stableVersion`, which every update of the message increments.
    public func isContentEqual(to other: Message) -> Bool {
        if self === other { return true }
        guard stableId == other.stableId, stableVersion == other.stableVersion, id == other.id,
            timestamp == other.timestamp, flags == other.flags, tags == other.tags, text == other.text,
            groupingKey == other.groupingKey, globallyUniqueId == other.globallyUniqueId,
            threadId == other.threadId, authorId == other.authorId, attributes.count == other.attributes.count,
            media.count == other.media.count, peersEqual(author, other.author)
        else { return false }
        return zip(media, other.media).allSatisfy { $0.isEqual(to: $1) }
    }
}

/// Whether two optional peers are both absent or equal.
func peersEqual(_ lhs: Peer?, _ rhs: Peer?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): return true
    case let (.some(left), .some(right)): return left.isEqual(right)
    default: return false
    }
}

/// Whether two optional messages are both absent or show the same content.
func messagesEqual(_ lhs: Message?, _ rhs: Message?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): return true
    case let (.some(left), .some(right)): return left.isContentEqual(to: right)
    default: return false
    }
}
