public import SQLite

/// Pinned messages (migration 10; core.telegram.org method `messages.updatePinnedMessage`): a flag on each box's copy
/// of a message (private chats and basic groups) and on each channel message.
extension StoreTransaction {
    /// Pins or unpins message `id` of `owner`'s box; returns whether the flag changed.
    public func setPinned(owner: Int64, id: Int64, pinned: Bool) throws(SQLiteError) -> Bool {
        try run(
            "UPDATE messages SET pinned = ?3 WHERE owner = ?1 AND id = ?2 AND pinned != ?3",
            [.integer(owner), .integer(id), .integer(pinned ? 1 : 0)]) > 0
    }

    /// The newest pinned message of `owner`'s conversation with `peer`.
    public func topPinnedMessageId(owner: Int64, peer: PeerRef) throws(SQLiteError) -> Int64? {
        try integer(
            """
            SELECT max(id) FROM messages WHERE owner = ? AND peer_kind = ? AND peer_id = ? AND pinned = 1
            """, [.integer(owner), .integer(peer.kind.rawValue), .integer(peer.id)])
    }

    /// The pinned messages of `owner`'s conversation with `peer`, newest first, at most `limit`.
    public func pinnedMessageIds(owner: Int64, peer: PeerRef, limit: Int) throws(SQLiteError) -> [Int64] {
        try rows(
            """
            SELECT id FROM messages WHERE owner = ? AND peer_kind = ? AND peer_id = ? AND pinned = 1
            ORDER BY id DESC LIMIT ?
            """,
            [.integer(owner), .integer(peer.kind.rawValue), .integer(peer.id), .integer(Int64(max(0, limit)))]
        ) { $0.int64(0) }
    }

    /// Pins or unpins message `id` of channel `channelId`; returns whether the flag changed.
    public func setChannelMessagePinned(channelId: Int64, id: Int64, pinned: Bool) throws(SQLiteError) -> Bool {
        try run(
            "UPDATE channel_messages SET pinned = ?3 WHERE channel_id = ?1 AND id = ?2 AND pinned != ?3",
            [.integer(channelId), .integer(id), .integer(pinned ? 1 : 0)]) > 0
    }

    /// The newest pinned message of channel `channelId`.
    public func topPinnedChannelMessageId(channelId: Int64) throws(SQLiteError) -> Int64? {
        try integer(
            "SELECT max(id) FROM channel_messages WHERE channel_id = ? AND pinned = 1", [.integer(channelId)])
    }

    /// The pinned messages of channel `channelId`, newest first, at most `limit`.
    public func pinnedChannelMessageIds(channelId: Int64, limit: Int) throws(SQLiteError) -> [Int64] {
        try rows(
            "SELECT id FROM channel_messages WHERE channel_id = ? AND pinned = 1 ORDER BY id DESC LIMIT ?",
            [.integer(channelId), .integer(Int64(max(0, limit)))]
        ) { $0.int64(0) }
    }
}
