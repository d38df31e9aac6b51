public import SQLite

/// Message reactions and the reactions a chat allows (migration 18; core.telegram.org "Message reactions").
extension StoreTransaction {
    /// Every reaction on `target`, oldest first.
    public func reactions(on target: ReactionTarget) throws(SQLiteError) -> [ReactionRecord] {
        try rows(
            """
            SELECT user_id, emoticon, chosen_order, big, date FROM message_reactions
            WHERE channel_id = ? AND message_key = ? ORDER BY date, user_id, chosen_order
            """, [.integer(target.channelId), .integer(target.messageKey)]
        ) { row in
            ReactionRecord(
                userId: row.int64(0), emoticon: row.text(1), chosenOrder: row.int64(2), big: row.int64(3) != 0,
                date: Int32(truncatingIfNeeded: row.int64(4)))
        }
    }

    /// Replaces `userId`'s reactions on `target` with `emoticons` (in the order chosen; empty removes them all),
    /// keeping the date of a reaction that stays.
    public func setReactions(
        _ emoticons: [String], by userId: Int64, on target: ReactionTarget, big: Bool, date: Int32
    ) throws(SQLiteError) {
        let before = try reactions(on: target).filter { $0.userId == userId }
        try run(
            "DELETE FROM message_reactions WHERE channel_id = ? AND message_key = ? AND user_id = ?",
            [.integer(target.channelId), .integer(target.messageKey), .integer(userId)])
        for (order, emoticon) in emoticons.enumerated() {
            let kept = before.first { $0.emoticon == emoticon }
            try run(
                """
                INSERT INTO message_reactions (channel_id, message_key, user_id, emoticon, chosen_order, big, date)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(target.channelId), .integer(target.messageKey), .integer(userId), .text(emoticon),
                    .integer(Int64(order)), .integer(big && kept == nil ? 1 : (kept?.big == true ? 1 : 0)),
                    .integer(Int64(kept?.date ?? date)),
                ])
        }
    }

    /// Removes every reaction on `target` (the message was deleted everywhere).
    public func deleteReactions(on target: ReactionTarget) throws(SQLiteError) {
        try run(
            "DELETE FROM message_reactions WHERE channel_id = ? AND message_key = ?",
            [.integer(target.channelId), .integer(target.messageKey)])
    }

    /// The reactions basic group or channel `peerId` allows (`peerKind` 1 a basic group, 2 a channel), or `nil`
    /// when never set (everything allowed).
    public func chatReactions(peerKind: Int64, peerId: Int64) throws(SQLiteError) -> ChatReactionsRecord? {
        try row(
            "SELECT mode, emoticons, reactions_limit FROM chat_reactions WHERE peer_kind = ? AND peer_id = ?",
            [.integer(peerKind), .integer(peerId)]
        ) { row in
            ChatReactionsRecord(
                mode: ChatReactionsRecord.Mode(rawValue: row.int64(0)) ?? .all,
                emoticons: row.text(1).split(separator: "\n").map(String.init), reactionsLimit: row.int64(2))
        }
    }

    /// Stores the reactions basic group or channel `peerId` allows.
    public func setChatReactions(_ record: ChatReactionsRecord, peerKind: Int64, peerId: Int64) throws(SQLiteError) {
        try run(
            """
            INSERT INTO chat_reactions (peer_kind, peer_id, mode, emoticons, reactions_limit) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (peer_kind, peer_id) DO UPDATE SET
                mode = excluded.mode, emoticons = excluded.emoticons, reactions_limit = excluded.reactions_limit
            """,
            [
                .integer(peerKind), .integer(peerId), .integer(record.mode.rawValue),
                .text(record.emoticons.joined(separator: "\n")), .integer(record.reactionsLimit),
            ])
    }
}
