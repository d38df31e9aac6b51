public import SQLite

/// A channel's messages and its pts log (core.telegram.org "Working with updates": each channel has its own pts).
extension StoreTransaction {
    static let channelMessageColumns = """
        channel_id, id, from_id, post, date, edit_date, text, entities, media, media_kind, reply_to, forward, \
        grouped_id, silent, action, views, pinned, post_author
        """

    static func channelMessage(_ row: Statement) -> ChannelMessageRecord {
        ChannelMessageRecord(
            channelId: row.int64(0), id: row.int64(1), fromId: row.int64(2), post: row.int64(3) != 0,
            date: Int32(truncatingIfNeeded: row.int64(4)),
            editDate: row.optionalInt64(5).map { Int32(truncatingIfNeeded: $0) }, text: row.text(6),
            entities: row.optionalBytes(7), media: row.optionalBytes(8), mediaKind: row.int64(9),
            replyTo: row.optionalInt64(10), forward: row.optionalBytes(11), groupedId: row.optionalInt64(12),
            silent: row.int64(13) != 0, action: row.optionalBytes(14), views: row.int64(15),
            pinned: row.int64(16) != 0, postAuthor: row.optionalText(17))
    }

    /// The next message id of channel `channelId` (1, 2, … per channel).
    public func allocateChannelMessageId(channelId: Int64) throws(SQLiteError) -> Int64 {
        let id =
            try integer("SELECT next_message_id FROM channels WHERE id = ?", [.integer(channelId)]) ?? 1
        try run("UPDATE channels SET next_message_id = ? WHERE id = ?", [.integer(id + 1), .integer(channelId)])
        return id
    }

    /// Stores a channel message (once, for every member).
    public func insert(_ message: ChannelMessageRecord) throws(SQLiteError) {
        try run(
            "INSERT INTO channel_messages (\(Self.channelMessageColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .integer(message.channelId), .integer(message.id), .integer(message.fromId),
                .integer(message.post ? 1 : 0), .integer(Int64(message.date)),
                .optional(message.editDate.map(Int64.init)), .text(message.text), .optional(message.entities),
                .optional(message.media), .integer(message.mediaKind), .optional(message.replyTo),
                .optional(message.forward), .optional(message.groupedId), .integer(message.silent ? 1 : 0),
                .optional(message.action), .integer(message.views), .integer(message.pinned ? 1 : 0),
                .optional(message.postAuthor),
            ])
    }

    /// Message `id` of channel `channelId`.
    public func channelMessage(channelId: Int64, id: Int64) throws(SQLiteError) -> ChannelMessageRecord? {
        try row(
            "SELECT \(Self.channelMessageColumns) FROM channel_messages WHERE channel_id = ? AND id = ?",
            [.integer(channelId), .integer(id)], Self.channelMessage)
    }

    /// The messages with these ids of channel `channelId`, in the order asked, missing ones left out.
    public func channelMessages(channelId: Int64, ids: [Int64]) throws(SQLiteError) -> [ChannelMessageRecord] {
        var result: [ChannelMessageRecord] = []
        for id in ids {
            if let message = try channelMessage(channelId: channelId, id: id) { result.append(message) }
        }
        return result
    }

    /// The messages of channel `channelId` with these ids, by id, missing ones left out: one range query over the
    /// ids' span when they are dense (a channel difference's new messages are consecutive), else one query each.
    public func channelMessagesById(channelId: Int64, ids: [Int64]) throws(SQLiteError) -> [Int64: ChannelMessageRecord]
    {
        guard let low = ids.min(), let high = ids.max() else { return [:] }
        let wanted = Set(ids)
        guard high - low < Int64(wanted.count) * 2 + 16 else {
            return Dictionary(
                try channelMessages(channelId: channelId, ids: Array(wanted)).map { ($0.id, $0) },
                uniquingKeysWith: { first, _ in first })
        }
        var result = [Int64: ChannelMessageRecord](minimumCapacity: wanted.count)
        let rows = try rows(
            "SELECT \(Self.channelMessageColumns) FROM channel_messages WHERE channel_id = ? AND id BETWEEN ? AND ?",
            [.integer(channelId), .integer(low), .integer(high)], Self.channelMessage)
        for message in rows where wanted.contains(message.id) { result[message.id] = message }
        return result
    }

    /// The newest message of channel `channelId`.
    public func topChannelMessage(channelId: Int64) throws(SQLiteError) -> ChannelMessageRecord? {
        try row(
            "SELECT \(Self.channelMessageColumns) FROM channel_messages WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            [.integer(channelId)], Self.channelMessage)
    }

    /// How many messages channel `channelId` has.
    public func channelMessageCount(channelId: Int64) throws(SQLiteError) -> Int {
        Int(
            try integer("SELECT count(*) FROM channel_messages WHERE channel_id = ?", [.integer(channelId)]) ?? 0)
    }

    /// Replaces a channel message's text, entities, media and edit date.
    public func updateContent(of message: ChannelMessageRecord) throws(SQLiteError) {
        try run(
            """
            UPDATE channel_messages SET text = ?, entities = ?, media = ?, media_kind = ?, edit_date = ?
            WHERE channel_id = ? AND id = ?
            """,
            [
                .text(message.text), .optional(message.entities), .optional(message.media), .integer(message.mediaKind),
                .optional(message.editDate.map(Int64.init)), .integer(message.channelId), .integer(message.id),
            ])
    }

    /// Deletes messages of a channel; returns the ids that existed.
    public func deleteChannelMessages(channelId: Int64, ids: [Int64]) throws(SQLiteError) -> [Int64] {
        var deleted: [Int64] = []
        for id in ids
        where try run(
            "DELETE FROM channel_messages WHERE channel_id = ? AND id = ?", [.integer(channelId), .integer(id)])
            > 0
        {
            try run(
                "DELETE FROM channel_message_views WHERE channel_id = ? AND id = ?",
                [.integer(channelId), .integer(id)])
            deleted.append(id)
        }
        return deleted
    }

    /// The id already given to a message `sender` sent to a channel with `randomId`.
    public func channelMessageId(channelId: Int64, sender: Int64, randomId: Int64) throws(SQLiteError) -> Int64? {
        try integer(
            "SELECT id FROM channel_random_ids WHERE channel_id = ? AND sender = ? AND random_id = ?",
            [.integer(channelId), .integer(sender), .integer(randomId)])
    }

    /// Records the channel message id that `sender`'s `randomId` became.
    public func remember(randomId: Int64, channelId: Int64, sender: Int64, id: Int64) throws(SQLiteError) {
        try run(
            "INSERT INTO channel_random_ids (channel_id, sender, random_id, id) VALUES (?, ?, ?, ?)",
            [.integer(channelId), .integer(sender), .integer(randomId), .integer(id)])
    }

    /// A page of a channel's history, as `history` pages a message box (core.telegram.org "Pagination in the API").
    public func channelHistory(channelId: Int64, _ query: HistoryQuery) throws(SQLiteError) -> [ChannelMessageRecord] {
        guard query.limit > 0 else { return [] }
        let base: [SQLValue] = [.integer(channelId)]
        var older = "channel_id = ?1"
        var newer = "channel_id = ?1"
        if query.offsetId > 0 {
            older += " AND id < \(query.offsetId)"
            newer += " AND id >= \(query.offsetId)"
        } else if query.offsetDate > 0 {
            older += " AND date < \(query.offsetDate)"
            newer += " AND date >= \(query.offsetDate)"
        } else {
            newer += " AND 0"
        }
        let select = "SELECT \(Self.channelMessageColumns) FROM channel_messages WHERE"
        var page: [ChannelMessageRecord] = []
        if query.addOffset < 0 {
            let newerCount = min(-query.addOffset, query.limit)
            page = try rows(
                "\(select) \(newer) ORDER BY id ASC LIMIT ?2 OFFSET ?3",
                base + [.integer(Int64(newerCount)), .integer(Int64(-query.addOffset - newerCount))],
                Self.channelMessage
            ).reversed()
            let olderCount = query.limit - newerCount
            if olderCount > 0 {
                page += try rows(
                    "\(select) \(older) ORDER BY id DESC LIMIT ?2", base + [.integer(Int64(olderCount))],
                    Self.channelMessage)
            }
        } else {
            page = try rows(
                "\(select) \(older) ORDER BY id DESC LIMIT ?2 OFFSET ?3",
                base + [.integer(Int64(query.limit)), .integer(Int64(query.addOffset))], Self.channelMessage)
        }
        return page.filter { (query.maxId <= 0 || $0.id < query.maxId) && (query.minId <= 0 || $0.id > query.minId) }
    }

    /// Messages of a channel whose text contains `text` (no case), of the media kinds given, newest first, older than
    /// `offsetId` when set, only pinned ones when `pinnedOnly`, at most `limit`.
    public func searchChannel(
        channelId: Int64, text: String, mediaKinds: [Int64]?, pinnedOnly: Bool = false, offsetId: Int64, limit: Int
    ) throws(SQLiteError) -> [ChannelMessageRecord] {
        var sql = """
            SELECT \(Self.channelMessageColumns) FROM channel_messages
            WHERE channel_id = ?1 AND instr(lower(text), lower(?2)) > 0
            """
        if let mediaKinds { sql += " AND media_kind IN (\(mediaKinds.map(String.init).joined(separator: ",")))" }
        if pinnedOnly { sql += " AND pinned = 1" }
        if offsetId > 0 { sql += " AND id < \(offsetId)" }
        sql += " ORDER BY id DESC LIMIT \(max(0, limit))"
        return try rows(sql, [.integer(channelId), .text(text)], Self.channelMessage)
    }

    /// Counts a view of message `id` by `userId` once; returns the message's views.
    public func viewChannelMessage(channelId: Int64, id: Int64, userId: Int64) throws(SQLiteError) -> Int64? {
        guard try channelMessage(channelId: channelId, id: id) != nil else { return nil }
        if try run(
            "INSERT OR IGNORE INTO channel_message_views (channel_id, id, user_id) VALUES (?, ?, ?)",
            [.integer(channelId), .integer(id), .integer(userId)]) > 0
        {
            try run(
                "UPDATE channel_messages SET views = views + 1 WHERE channel_id = ? AND id = ?",
                [.integer(channelId), .integer(id)])
        }
        return try integer(
            "SELECT views FROM channel_messages WHERE channel_id = ? AND id = ?", [.integer(channelId), .integer(id)])
    }

    /// Stores one update of channel `channelId` (it moves the channel's pts from `pts − ptsCount` to `pts`); `body`
    /// makes the serialized update from its pts. Returns the new pts.
    public func appendChannelUpdate(
        channelId: Int64, ptsCount: Int64, date: Int32, body: (Int64) -> [UInt8]
    ) throws(SQLiteError) -> Int64 {
        let current = try integer("SELECT pts FROM channels WHERE id = ?", [.integer(channelId)]) ?? 0
        let pts = current + ptsCount
        try run("UPDATE channels SET pts = ? WHERE id = ?", [.integer(pts), .integer(channelId)])
        try run(
            "INSERT INTO channel_updates (channel_id, pts, pts_count, date, body) VALUES (?, ?, ?, ?, ?)",
            [.integer(channelId), .integer(pts), .integer(ptsCount), .integer(Int64(date)), .blob(body(pts))])
        return pts
    }

    /// Channel `channelId`'s stored updates after `pts`, oldest first, at most `limit`.
    public func channelUpdates(channelId: Int64, after pts: Int64, limit: Int) throws(SQLiteError) -> [UpdateRecord] {
        try rows(
            "SELECT pts, pts_count, date, body FROM channel_updates WHERE channel_id = ? AND pts > ? ORDER BY pts LIMIT ?",
            [.integer(channelId), .integer(pts), .integer(Int64(max(0, limit)))]
        ) {
            UpdateRecord(
                pts: $0.int64(0), ptsCount: $0.int64(1), date: Int32(truncatingIfNeeded: $0.int64(2)), body: $0.bytes(3)
            )
        }
    }

    /// Pins (above every pinned dialog) or unpins `userId`'s channel dialog; returns whether they are a member.
    public func setChannelPinned(channelId: Int64, userId: Int64, pinned: Bool) throws(SQLiteError) -> Bool {
        let order =
            pinned
            ? max(
                try integer("SELECT max(pinned) FROM channel_members WHERE user_id = ?", [.integer(userId)]) ?? 0,
                try integer("SELECT max(pinned) FROM dialogs WHERE owner = ?", [.integer(userId)]) ?? 0) + 1
            : 0
        return try run(
            "UPDATE channel_members SET pinned = ? WHERE channel_id = ? AND user_id = ? AND status = 0",
            [.integer(order), .integer(channelId), .integer(userId)]) > 0
    }

    /// The live channels `userId` is a member of whose last update is from `date` or later, most recent first, at most
    /// `limit`: what `updates.getDifference` reports as `updateChannelTooLong`.
    public func channelsUpdated(userId: Int64, since date: Int32, limit: Int) throws(SQLiteError) -> [ChannelRecord] {
        try rows(
            """
            SELECT \(Self.prefixed(Self.channelColumns, "c")) FROM channel_members m JOIN channels c ON c.id = m.channel_id
            JOIN channel_updates u ON u.channel_id = c.id AND u.pts = c.pts
            WHERE m.user_id = ?1 AND m.status = 0 AND c.deleted = 0 AND u.date >= ?2
            ORDER BY u.date DESC, c.id DESC LIMIT ?3
            """, [.integer(userId), .integer(Int64(date)), .integer(Int64(max(0, limit)))], Self.channel)
    }

    /// The authors, other than `except`, of channel `channelId`'s messages after `after` up to `upTo`, at most `limit`.
    public func channelAuthors(
        channelId: Int64, after: Int64, upTo: Int64, except: Int64, limit: Int
    ) throws(SQLiteError) -> [Int64] {
        try rows(
            """
            SELECT DISTINCT from_id FROM channel_messages WHERE channel_id = ? AND id > ? AND id <= ? AND from_id != ?
            AND action IS NULL ORDER BY from_id LIMIT ?
            """,
            [.integer(channelId), .integer(after), .integer(upTo), .integer(except), .integer(Int64(max(0, limit)))]
        ) { $0.int64(0) }
    }

    /// Forgets a deleted channel's messages, its log, its random ids and its views (its members' relations stay, so
    /// they see it as `channelForbidden`).
    public func purgeChannelContent(channelId: Int64) throws(SQLiteError) {
        for table in ["channel_messages", "channel_updates", "channel_random_ids", "channel_message_views"] {
            try run("DELETE FROM \(table) WHERE channel_id = ?", [.integer(channelId)])
        }
    }
}
