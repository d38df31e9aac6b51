public import SQLite

extension StoreTransaction {
    /// The groups users `a` and `b` are both members of (core.telegram.org `messages.getCommonChats`): basic groups
    /// not migrated to a supergroup, and supergroups (not broadcast channels, whose members are not shown, nor deleted
    /// ones) where both are members, not having left or been banned. Ids of each kind, newest group first.
    public func commonChats(_ a: Int64, _ b: Int64) throws(SQLiteError) -> (chats: [Int64], channels: [Int64]) {
        let chats = try rows(
            """
            SELECT mine.chat_id FROM chat_members mine
            JOIN chat_members theirs ON theirs.chat_id = mine.chat_id AND theirs.user_id = ?
            JOIN chats ON chats.id = mine.chat_id
            WHERE mine.user_id = ? AND chats.migrated_to IS NULL ORDER BY mine.chat_id DESC
            """, [.integer(b), .integer(a)]
        ) { $0.int64(0) }
        let member = ChannelMemberRecord.Status.member.rawValue
        let channels = try rows(
            """
            SELECT mine.channel_id FROM channel_members mine
            JOIN channel_members theirs ON theirs.channel_id = mine.channel_id AND theirs.user_id = ?
                AND theirs.status = ?
            JOIN channels ON channels.id = mine.channel_id
            WHERE mine.user_id = ? AND mine.status = ? AND channels.broadcast = 0 AND channels.deleted = 0
            ORDER BY mine.channel_id DESC
            """, [.integer(b), .integer(member), .integer(a), .integer(member)]
        ) { $0.int64(0) }
        return (chats, channels)
    }
}
