public import SQLite

/// Channels and their members (migration 9).
extension StoreTransaction {
    static let channelColumns = """
        id, title, about, username, creator, date, broadcast, pts, next_message_id, deleted, slowmode_seconds, \
        signatures, default_banned_rights, photo
        """
    /// How many columns `channelColumns` names (where a joined row's next table starts).
    static let channelColumnCount: Int32 = 14

    static func channel(_ row: Statement) -> ChannelRecord {
        ChannelRecord(
            id: row.int64(0), title: row.text(1), about: row.text(2), username: row.optionalText(3),
            creator: row.int64(4), date: Int32(truncatingIfNeeded: row.int64(5)), broadcast: row.int64(6) != 0,
            pts: row.int64(7), nextMessageId: row.int64(8), deleted: row.int64(9) != 0,
            slowmodeSeconds: Int32(truncatingIfNeeded: row.int64(10)), signatures: row.int64(11) != 0,
            defaultBannedRights: row.optionalBytes(12), photo: row.optionalBytes(13))
    }

    /// The channel `id`, deleted ones included.
    public func channel(id: Int64) throws(SQLiteError) -> ChannelRecord? {
        try row("SELECT \(Self.channelColumns) FROM channels WHERE id = ?", [.integer(id)], Self.channel)
    }

    /// The live channel whose username is `username`, compared without case.
    public func channel(username: String) throws(SQLiteError) -> ChannelRecord? {
        try row(
            "SELECT \(Self.channelColumns) FROM channels WHERE username_key = ? AND deleted = 0",
            [.text(username.lowercased())], Self.channel)
    }

    /// Stores a new channel.
    public func insert(_ channel: ChannelRecord) throws(SQLiteError) {
        try run(
            """
            INSERT INTO channels (\(Self.channelColumns), username_key)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(channel.id), .text(channel.title), .text(channel.about), .optional(channel.username),
                .integer(channel.creator), .integer(Int64(channel.date)), .integer(channel.broadcast ? 1 : 0),
                .integer(channel.pts), .integer(channel.nextMessageId), .integer(channel.deleted ? 1 : 0),
                .integer(Int64(channel.slowmodeSeconds)), .integer(channel.signatures ? 1 : 0),
                .optional(channel.defaultBannedRights), .optional(channel.photo),
                .optional(channel.username?.lowercased()),
            ])
    }

    /// Replaces a channel's title, about, username and deleted flag (its pts and message ids move on their own).
    public func updateProfile(of channel: ChannelRecord) throws(SQLiteError) {
        try run(
            "UPDATE channels SET title = ?, about = ?, username = ?, username_key = ?, deleted = ? WHERE id = ?",
            [
                .text(channel.title), .text(channel.about), .optional(channel.username),
                .optional(channel.username?.lowercased()), .integer(channel.deleted ? 1 : 0), .integer(channel.id),
            ])
    }

    /// Replaces a channel's slow mode, signatures and default banned rights.
    public func updateSettings(of channel: ChannelRecord) throws(SQLiteError) {
        try run(
            "UPDATE channels SET slowmode_seconds = ?, signatures = ?, default_banned_rights = ? WHERE id = ?",
            [
                .integer(Int64(channel.slowmodeSeconds)), .integer(channel.signatures ? 1 : 0),
                .optional(channel.defaultBannedRights), .integer(channel.id),
            ])
    }

    /// Replaces a channel's photo.
    public func setPhoto(_ photo: [UInt8]?, channelId: Int64) throws(SQLiteError) {
        try run("UPDATE channels SET photo = ? WHERE id = ?", [.optional(photo), .integer(channelId)])
    }

    /// When `userId` last posted in channel `channelId` (slow mode), 0 if never.
    public func lastPost(channelId: Int64, userId: Int64) throws(SQLiteError) -> Int32 {
        Int32(
            truncatingIfNeeded: try integer(
                "SELECT last_post FROM channel_members WHERE channel_id = ? AND user_id = ?",
                [.integer(channelId), .integer(userId)]) ?? 0)
    }

    /// Records that `userId` posted in channel `channelId` at `date`.
    public func setLastPost(channelId: Int64, userId: Int64, date: Int32) throws(SQLiteError) {
        try run(
            "UPDATE channel_members SET last_post = ? WHERE channel_id = ? AND user_id = ?",
            [.integer(Int64(date)), .integer(channelId), .integer(userId)])
    }

    static let memberColumns = """
        channel_id, user_id, status, inviter, date, admin_rights, promoted_by, rank, banned_rights, kicked_by, \
        read_inbox_max
        """

    static func member(_ row: Statement) -> ChannelMemberRecord { member(row, offset: 0) }

    /// `columns` (comma-separated) each prefixed with `alias.`.
    static func prefixed(_ columns: String, _ alias: String) -> String {
        columns.split(separator: ",").map { "\(alias).\($0.filter { !$0.isWhitespace })" }.joined(separator: ", ")
    }

    /// `userId`'s relation to channel `channelId`, if they ever had one.
    public func channelMember(channelId: Int64, userId: Int64) throws(SQLiteError) -> ChannelMemberRecord? {
        try row(
            "SELECT \(Self.memberColumns) FROM channel_members WHERE channel_id = ? AND user_id = ?",
            [.integer(channelId), .integer(userId)], Self.member)
    }

    /// Stores (or replaces) `userId`'s relation to a channel; the read mark and pin are kept when replacing
    /// unless `member` sets a newer read mark.
    public func upsert(_ member: ChannelMemberRecord) throws(SQLiteError) {
        try run(
            """
            INSERT INTO channel_members (\(Self.memberColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
            ON CONFLICT(channel_id, user_id) DO UPDATE SET status = ?3, inviter = ?4, date = ?5, admin_rights = ?6,
            promoted_by = ?7, rank = ?8, banned_rights = ?9, kicked_by = ?10,
            read_inbox_max = max(read_inbox_max, ?11)
            """,
            [
                .integer(member.channelId), .integer(member.userId), .integer(member.status.rawValue),
                .integer(member.inviter), .integer(Int64(member.date)), .optional(member.adminRights),
                .optional(member.promotedBy), .optional(member.rank), .optional(member.bannedRights),
                .optional(member.kickedBy), .integer(member.readInboxMax),
            ])
    }

    /// The relations of channel `channelId` with `status`, oldest first (the creator and admins first when
    /// `adminsOnly`), `offset` skipped, at most `limit`; `query` keeps those whose name or username starts with it.
    public func channelMembers(
        channelId: Int64, status: ChannelMemberRecord.Status, adminsOnly: Bool = false, query: String = "",
        offset: Int = 0, limit: Int
    ) throws(SQLiteError) -> [ChannelMemberRecord] {
        var sql = "SELECT \(Self.prefixed(Self.memberColumns, "m")) FROM channel_members m"
        var values: [SQLValue] = [.integer(channelId), .integer(status.rawValue)]
        if !query.isEmpty {
            sql += " JOIN users u ON u.id = m.user_id"
        }
        sql += " WHERE m.channel_id = ?1 AND m.status = ?2"
        if adminsOnly {
            sql += " AND (m.admin_rights IS NOT NULL OR m.user_id = (SELECT creator FROM channels WHERE id = ?1))"
        }
        if !query.isEmpty {
            var pattern = ""
            for character in query.lowercased() {
                if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
                pattern.append(character)
            }
            pattern.append("%")
            sql += """
                 AND (u.username_key LIKE ?5 ESCAPE '\\' OR lower(u.first_name) LIKE ?5 ESCAPE '\\'
                 OR lower(u.last_name) LIKE ?5 ESCAPE '\\')
                """
            values += [.integer(Int64(max(0, limit))), .integer(Int64(max(0, offset))), .text(pattern)]
        } else {
            values += [.integer(Int64(max(0, limit))), .integer(Int64(max(0, offset)))]
        }
        sql += " ORDER BY m.date, m.user_id LIMIT ?3 OFFSET ?4"
        return try rows(sql, values, Self.member)
    }

    /// How many relations of `status` channel `channelId` has.
    public func channelMemberCount(
        channelId: Int64, status: ChannelMemberRecord.Status = .member
    ) throws(SQLiteError)
        -> Int
    {
        Int(
            try integer(
                "SELECT count(*) FROM channel_members WHERE channel_id = ? AND status = ?",
                [.integer(channelId), .integer(status.rawValue)]) ?? 0)
    }

    /// Every member of channel `channelId` with the auth keys signed in to them: where pushes go. One query, however
    /// many members.
    public func channelMemberKeys(channelId: Int64) throws(SQLiteError) -> [(userId: Int64, authKeyId: Int64)] {
        try rows(
            """
            SELECT m.user_id, a.auth_key_id FROM channel_members m JOIN authorizations a ON a.user_id = m.user_id
            WHERE m.channel_id = ? AND m.status = 0 ORDER BY m.user_id
            """, [.integer(channelId)]
        ) { (userId: $0.int64(0), authKeyId: $0.int64(1)) }
    }

    /// Moves `userId`'s read mark in a channel up to `maxId`; returns whether it moved.
    public func readChannel(channelId: Int64, userId: Int64, maxId: Int64) throws(SQLiteError) -> Bool {
        try run(
            "UPDATE channel_members SET read_inbox_max = ?3 WHERE channel_id = ?1 AND user_id = ?2 AND read_inbox_max < ?3",
            [.integer(channelId), .integer(userId), .integer(maxId)]) > 0
    }

    /// The greatest read mark of anyone in the channel but `userId`: how far `userId`'s messages were read.
    public func channelReadOutbox(channelId: Int64, userId: Int64) throws(SQLiteError) -> Int64 {
        try integer(
            "SELECT max(read_inbox_max) FROM channel_members WHERE channel_id = ? AND user_id != ? AND status = 0",
            [.integer(channelId), .integer(userId)]) ?? 0
    }

    /// Incoming messages of channel `channelId` after `readInboxMax` for `userId` (not their own).
    public func channelUnreadCount(channelId: Int64, userId: Int64, readInboxMax: Int64) throws(SQLiteError) -> Int32 {
        Int32(
            clamping: try integer(
                "SELECT count(*) FROM channel_messages WHERE channel_id = ? AND id > ? AND from_id != ?",
                [.integer(channelId), .integer(readInboxMax), .integer(userId)]) ?? 0)
    }

    /// The live channels `userId` is a member of, as dialogs: newest top message first (at one date, highest channel
    /// id first), those past `cursor` only, only pinned or only unpinned ones when `pinned` says so; at most `limit`.
    public func channelDialogs(
        userId: Int64, after cursor: ChannelDialogCursor = .start, pinned: Bool? = nil, limit: Int
    )
        throws(SQLiteError) -> [ChannelDialogRecord]
    {
        var sql = """
            SELECT \(Self.prefixed(Self.channelColumns, "c")), \(Self.prefixed(Self.memberColumns, "m")), t.id, t.date, m.pinned FROM channel_members m
            JOIN channels c ON c.id = m.channel_id
            JOIN channel_messages t ON t.channel_id = c.id
                AND t.id = (SELECT max(id) FROM channel_messages WHERE channel_id = c.id)
            WHERE m.user_id = ?1 AND m.status = 0 AND c.deleted = 0
            """
        var values: [SQLValue] = [.integer(userId), .integer(Int64(max(0, limit)))]
        if let pinned { sql += pinned ? " AND m.pinned > 0" : " AND m.pinned = 0" }
        switch cursor {
        case .start: break
        case .olderThan(let date):
            sql += " AND t.date < ?3"
            values.append(.integer(Int64(date)))
        case .notNewerThan(let date):
            sql += " AND t.date <= ?3"
            values.append(.integer(Int64(date)))
        case .after(let date, let channelId):
            sql += " AND (t.date < ?3 OR (t.date = ?3 AND c.id < ?4))"
            values += [.integer(Int64(date)), .integer(channelId)]
        }
        sql += " ORDER BY t.date DESC, c.id DESC LIMIT ?2"
        var dialogs = try rows(sql, values) { row in
            let next = Self.channelColumnCount + 11
            return ChannelDialogRecord(
                channel: Self.channel(row), member: Self.member(row, offset: Self.channelColumnCount),
                topMessage: row.int64(next), topDate: Int32(truncatingIfNeeded: row.int64(next + 1)), unreadCount: 0,
                pinned: row.int64(next + 2))
        }
        for index in dialogs.indices {
            dialogs[index].unreadCount = try channelUnreadCount(
                channelId: dialogs[index].channel.id, userId: userId, readInboxMax: dialogs[index].member.readInboxMax)
        }
        return dialogs
    }

    /// How many live channels `userId` is a member of.
    public func channelDialogCount(userId: Int64) throws(SQLiteError) -> Int {
        Int(
            try integer(
                """
                SELECT count(*) FROM channel_members m JOIN channels c ON c.id = m.channel_id
                WHERE m.user_id = ? AND m.status = 0 AND c.deleted = 0
                """, [.integer(userId)]) ?? 0)
    }

    static func member(_ row: Statement, offset: Int32) -> ChannelMemberRecord {
        ChannelMemberRecord(
            channelId: row.int64(offset), userId: row.int64(offset + 1),
            status: ChannelMemberRecord.Status(rawValue: row.int64(offset + 2)) ?? .left,
            inviter: row.int64(offset + 3), date: Int32(truncatingIfNeeded: row.int64(offset + 4)),
            adminRights: row.optionalBytes(offset + 5), promotedBy: row.optionalInt64(offset + 6),
            rank: row.optionalText(offset + 7), bannedRights: row.optionalBytes(offset + 8),
            kickedBy: row.optionalInt64(offset + 9), readInboxMax: row.int64(offset + 10))
    }
}
