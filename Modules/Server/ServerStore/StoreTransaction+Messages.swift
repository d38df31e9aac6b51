public import SQLite

extension StoreTransaction {
    static let messageColumns = """
        owner, id, global_id, peer_kind, peer_id, from_id, outgoing, date, edit_date, text, entities, media, \
        media_kind, reply_to, forward, grouped_id, silent, action, pinned, media_unread
        """

    static func message(_ row: Statement) -> MessageRecord {
        MessageRecord(
            owner: row.int64(0), id: row.int64(1), globalId: row.int64(2),
            peer: PeerRef(PeerRef.Kind(rawValue: row.int64(3)) ?? .user, row.int64(4)), fromId: row.int64(5),
            outgoing: row.int64(6) != 0, date: Int32(truncatingIfNeeded: row.int64(7)),
            editDate: row.optionalInt64(8).map { Int32(truncatingIfNeeded: $0) }, text: row.text(9),
            entities: row.optionalBytes(10), media: row.optionalBytes(11), mediaKind: row.int64(12),
            replyTo: row.optionalInt64(13), forward: row.optionalBytes(14), groupedId: row.optionalInt64(15),
            silent: row.int64(16) != 0, action: row.optionalBytes(17), pinned: row.int64(18) != 0,
            mediaUnread: row.int64(19) != 0)
    }

    /// The next message id of `owner`'s message box.
    public func allocateMessageId(owner: Int64) throws(SQLiteError) -> Int64 {
        let id = try integer("SELECT next_message_id FROM user_state WHERE user_id = ?", [.integer(owner)]) ?? 1
        try run("UPDATE user_state SET next_message_id = ? WHERE user_id = ?", [.integer(id + 1), .integer(owner)])
        return id
    }

    /// Stores a message and moves its dialog's top message to it.
    public func insert(_ message: MessageRecord) throws(SQLiteError) {
        try run(
            "INSERT INTO messages (\(Self.messageColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .integer(message.owner), .integer(message.id), .integer(message.globalId),
                .integer(message.peer.kind.rawValue), .integer(message.peer.id), .integer(message.fromId),
                .integer(message.outgoing ? 1 : 0), .integer(Int64(message.date)),
                .optional(message.editDate.map(Int64.init)), .text(message.text), .optional(message.entities),
                .optional(message.media), .integer(message.mediaKind), .optional(message.replyTo),
                .optional(message.forward), .optional(message.groupedId), .integer(message.silent ? 1 : 0),
                .optional(message.action), .integer(message.pinned ? 1 : 0), .integer(message.mediaUnread ? 1 : 0),
            ])
        try run(
            """
            INSERT INTO dialogs (owner, peer_kind, peer_id, top_message) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT(owner, peer_kind, peer_id) DO UPDATE SET top_message = max(top_message, ?4)
            """,
            [
                .integer(message.owner), .integer(message.peer.kind.rawValue), .integer(message.peer.id),
                .integer(message.id),
            ])
    }

    /// The message `id` of `owner`'s box.
    public func message(owner: Int64, id: Int64) throws(SQLiteError) -> MessageRecord? {
        try row(
            "SELECT \(Self.messageColumns) FROM messages WHERE owner = ? AND id = ?", [.integer(owner), .integer(id)],
            Self.message)
    }

    /// The messages with these ids in `owner`'s box, in the order asked, missing ones left out.
    public func messages(owner: Int64, ids: [Int64]) throws(SQLiteError) -> [MessageRecord] {
        var result: [MessageRecord] = []
        for id in ids { if let message = try message(owner: owner, id: id) { result.append(message) } }
        return result
    }

    /// Every copy of a message (one per box it is in).
    public func copies(globalId: Int64) throws(SQLiteError) -> [MessageRecord] {
        try rows(
            "SELECT \(Self.messageColumns) FROM messages WHERE global_id = ? ORDER BY owner", [.integer(globalId)],
            Self.message)
    }

    /// Replaces a stored message's text, entities, media and edit date.
    public func updateContent(of message: MessageRecord) throws(SQLiteError) {
        try run(
            "UPDATE messages SET text = ?, entities = ?, media = ?, media_kind = ?, edit_date = ? WHERE owner = ? AND id = ?",
            [
                .text(message.text), .optional(message.entities), .optional(message.media), .integer(message.mediaKind),
                .optional(message.editDate.map(Int64.init)), .integer(message.owner), .integer(message.id),
            ])
    }

    /// Deletes messages from `owner`'s box and fixes the top message of the dialogs they were in; returns the
    /// messages deleted.
    public func deleteMessages(owner: Int64, ids: [Int64]) throws(SQLiteError) -> [MessageRecord] {
        let deleted = try messages(owner: owner, ids: ids)
        for message in deleted {
            try run("DELETE FROM messages WHERE owner = ? AND id = ?", [.integer(owner), .integer(message.id)])
        }
        for peer in Set(deleted.map(\.peer)) {
            let values: [SQLValue] = [.integer(owner), .integer(peer.kind.rawValue), .integer(peer.id)]
            if let top = try integer(
                "SELECT max(id) FROM messages WHERE owner = ? AND peer_kind = ? AND peer_id = ?", values)
            {
                try run(
                    "UPDATE dialogs SET top_message = ?4 WHERE owner = ?1 AND peer_kind = ?2 AND peer_id = ?3",
                    values + [.integer(top)])
            } else {
                try run("DELETE FROM dialogs WHERE owner = ? AND peer_kind = ? AND peer_id = ?", values)
            }
        }
        return deleted
    }

    /// The id already given to a message sent with `randomId` by `owner`, so a resend is not a second message.
    public func messageId(owner: Int64, randomId: Int64) throws(SQLiteError) -> Int64? {
        try integer(
            "SELECT id FROM message_random_ids WHERE owner = ? AND random_id = ?",
            [.integer(owner), .integer(randomId)])
    }

    /// Records the message id that `randomId` became.
    public func remember(randomId: Int64, owner: Int64, id: Int64) throws(SQLiteError) {
        try run(
            "INSERT INTO message_random_ids (owner, random_id, id) VALUES (?, ?, ?)",
            [.integer(owner), .integer(randomId), .integer(id)])
    }

    /// A page of one conversation, newest first, as `messages.getHistory` pages (core.telegram.org "Pagination in
    /// the API"): the messages older than `offsetId` (or `offsetDate`), shifted by `addOffset` (negative reaches
    /// newer ones), at most `limit`; of those, the ones within (`minId`, `maxId`) when those are set.
    public func history(owner: Int64, peer: PeerRef, _ query: HistoryQuery) throws(SQLiteError) -> [MessageRecord] {
        guard query.limit > 0 else { return [] }
        let bounds = "owner = ?1 AND peer_kind = ?2 AND peer_id = ?3"
        let base: [SQLValue] = [.integer(owner), .integer(peer.kind.rawValue), .integer(peer.id)]
        // The position: messages before it are older than the offset.
        var older = bounds
        var newer = bounds
        if query.offsetId > 0 {
            older += " AND id < \(query.offsetId)"
            newer += " AND id >= \(query.offsetId)"
        } else if query.offsetDate > 0 {
            older += " AND date < \(query.offsetDate)"
            newer += " AND date >= \(query.offsetDate)"
        } else {
            newer += " AND 0"
        }
        var page: [MessageRecord] = []
        if query.addOffset < 0 {
            let newerCount = min(-query.addOffset, query.limit)
            page = try rows(
                "SELECT \(Self.messageColumns) FROM messages WHERE \(newer) ORDER BY id ASC LIMIT ?4 OFFSET ?5",
                base + [.integer(Int64(newerCount)), .integer(Int64(-query.addOffset - newerCount))], Self.message
            ).reversed()
            let olderCount = query.limit - newerCount
            if olderCount > 0 {
                page += try rows(
                    "SELECT \(Self.messageColumns) FROM messages WHERE \(older) ORDER BY id DESC LIMIT ?4",
                    base + [.integer(Int64(olderCount))], Self.message)
            }
        } else {
            page = try rows(
                "SELECT \(Self.messageColumns) FROM messages WHERE \(older) ORDER BY id DESC LIMIT ?4 OFFSET ?5",
                base + [.integer(Int64(query.limit)), .integer(Int64(query.addOffset))], Self.message)
        }
        // max_id and min_id filter the page the offset and limit chose, not the history before it: Telegram applies
        // them after (core.telegram.org/api/offsets lists the parameters in the order they are applied), so max_id
        // alone far below the newest message finds nothing there (Telethon's `_MessagesIter` turns max_id into
        // offset_id for that reason), and a client written against this server must see the same.
        return page.filter { (query.maxId <= 0 || $0.id < query.maxId) && (query.minId <= 0 || $0.id > query.minId) }
    }

    /// How many messages one conversation of `owner` has.
    public func messageCount(owner: Int64, peer: PeerRef) throws(SQLiteError) -> Int {
        Int(
            try integer(
                "SELECT count(*) FROM messages WHERE owner = ? AND peer_kind = ? AND peer_id = ?",
                [.integer(owner), .integer(peer.kind.rawValue), .integer(peer.id)]) ?? 0)
    }

    /// Messages of `owner` whose text contains `text` (no case), optionally in one conversation and of one media
    /// kind, only pinned ones when `pinnedOnly`, newest first, older than `offsetId` when set.
    public func search(
        owner: Int64, peer: PeerRef?, text: String, mediaKinds: [Int64]?, pinnedOnly: Bool = false, offsetId: Int64,
        limit: Int
    ) throws(SQLiteError) -> [MessageRecord] {
        var sql = "SELECT \(Self.messageColumns) FROM messages WHERE owner = ?1 AND instr(lower(text), lower(?2)) > 0"
        var values: [SQLValue] = [.integer(owner), .text(text)]
        if let peer {
            sql += " AND peer_kind = ?3 AND peer_id = ?4"
            values += [.integer(peer.kind.rawValue), .integer(peer.id)]
        }
        if let mediaKinds { sql += " AND media_kind IN (\(mediaKinds.map(String.init).joined(separator: ",")))" }
        if pinnedOnly { sql += " AND pinned = 1" }
        if offsetId > 0 { sql += " AND id < \(offsetId)" }
        sql += " ORDER BY id DESC LIMIT \(max(0, limit))"
        return try rows(sql, values, Self.message)
    }
}
