public import SQLite

/// Invite links and who came through them (migration 11; core.telegram.org methods `messages.exportChatInvite`,
/// `messages.importChatInvite`, `messages.getChatInviteImporters`).
extension StoreTransaction {
    static let inviteColumns = """
        hash, peer_kind, peer_id, admin_id, date, expire_date, usage_limit, usage, request_needed, title, revoked, \
        permanent
        """

    static func invite(_ row: Statement) -> ChatInviteRecord {
        ChatInviteRecord(
            hash: row.text(0), peerKind: InvitePeerKind(rawValue: row.int64(1)) ?? .chat, peerId: row.int64(2),
            adminId: row.int64(3), date: Int32(truncatingIfNeeded: row.int64(4)),
            expireDate: row.optionalInt64(5).map { Int32(truncatingIfNeeded: $0) },
            usageLimit: row.optionalInt64(6).map { Int32(truncatingIfNeeded: $0) },
            usage: Int32(truncatingIfNeeded: row.int64(7)), requestNeeded: row.int64(8) != 0,
            title: row.optionalText(9), revoked: row.int64(10) != 0, permanent: row.int64(11) != 0)
    }

    /// The link with `hash`.
    public func invite(hash: String) throws(SQLiteError) -> ChatInviteRecord? {
        try row("SELECT \(Self.inviteColumns) FROM chat_invites WHERE hash = ?", [.text(hash)], Self.invite)
    }

    /// Stores a link, or replaces the one with its hash.
    public func save(_ invite: ChatInviteRecord) throws(SQLiteError) {
        try run(
            """
            INSERT OR REPLACE INTO chat_invites (\(Self.inviteColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(invite.hash), .integer(invite.peerKind.rawValue), .integer(invite.peerId),
                .integer(invite.adminId), .integer(Int64(invite.date)), .optional(invite.expireDate.map(Int64.init)),
                .optional(invite.usageLimit.map(Int64.init)), .integer(Int64(invite.usage)),
                .integer(invite.requestNeeded ? 1 : 0), .optional(invite.title), .integer(invite.revoked ? 1 : 0),
                .integer(invite.permanent ? 1 : 0),
            ])
    }

    /// Forgets the link with `hash`; returns whether it existed.
    public func deleteInvite(hash: String) throws(SQLiteError) -> Bool {
        try run("DELETE FROM chat_invites WHERE hash = ?", [.text(hash)]) > 0
    }

    /// `adminId`'s links to a conversation, revoked or not, newest first; those older than `before` (date, then
    /// hash) when given; at most `limit`.
    public func invites(
        peerKind: InvitePeerKind, peerId: Int64, adminId: Int64, revoked: Bool, before: (date: Int32, hash: String)?,
        limit: Int
    ) throws(SQLiteError) -> [ChatInviteRecord] {
        var sql = """
            SELECT \(Self.inviteColumns) FROM chat_invites
            WHERE peer_kind = ?1 AND peer_id = ?2 AND admin_id = ?3 AND revoked = ?4
            """
        var values: [SQLValue] = [
            .integer(peerKind.rawValue), .integer(peerId), .integer(adminId), .integer(revoked ? 1 : 0),
            .integer(Int64(max(0, limit))),
        ]
        if let before {
            sql += " AND (date < ?6 OR (date = ?6 AND hash < ?7))"
            values += [.integer(Int64(before.date)), .text(before.hash)]
        }
        sql += " ORDER BY date DESC, hash DESC LIMIT ?5"
        return try rows(sql, values, Self.invite)
    }

    /// How many of `adminId`'s links to a conversation are revoked (or not).
    public func inviteCount(
        peerKind: InvitePeerKind, peerId: Int64, adminId: Int64, revoked: Bool
    ) throws(SQLiteError) -> Int {
        Int(
            try integer(
                """
                SELECT count(*) FROM chat_invites WHERE peer_kind = ? AND peer_id = ? AND admin_id = ? AND revoked = ?
                """,
                [.integer(peerKind.rawValue), .integer(peerId), .integer(adminId), .integer(revoked ? 1 : 0)]) ?? 0)
    }

    /// Everyone who made links to a conversation, with how many of theirs are live and how many revoked; the most
    /// links first.
    public func inviteAdmins(
        peerKind: InvitePeerKind, peerId: Int64
    ) throws(SQLiteError) -> [(adminId: Int64, live: Int, revoked: Int)] {
        try rows(
            """
            SELECT admin_id, sum(revoked = 0), sum(revoked = 1) FROM chat_invites WHERE peer_kind = ? AND peer_id = ?
            GROUP BY admin_id ORDER BY count(*) DESC, admin_id
            """, [.integer(peerKind.rawValue), .integer(peerId)]
        ) { (adminId: $0.int64(0), live: Int($0.int64(1)), revoked: Int($0.int64(2))) }
    }

    /// `adminId`'s primary link to a conversation, if it has one that is not revoked.
    public func permanentInvite(
        peerKind: InvitePeerKind, peerId: Int64, adminId: Int64
    ) throws(SQLiteError) -> ChatInviteRecord? {
        try row(
            """
            SELECT \(Self.inviteColumns) FROM chat_invites
            WHERE peer_kind = ? AND peer_id = ? AND admin_id = ? AND permanent = 1 AND revoked = 0
            """, [.integer(peerKind.rawValue), .integer(peerId), .integer(adminId)], Self.invite)
    }

    static let importerColumns = "peer_kind, peer_id, user_id, hash, date, requested, approved_by"

    static func importer(_ row: Statement) -> ChatInviteImporterRecord {
        ChatInviteImporterRecord(
            peerKind: InvitePeerKind(rawValue: row.int64(0)) ?? .chat, peerId: row.int64(1), userId: row.int64(2),
            hash: row.text(3), date: Int32(truncatingIfNeeded: row.int64(4)), requested: row.int64(5) != 0,
            approvedBy: row.optionalInt64(6))
    }

    /// Records that someone joined, or asked to join, through a link (replacing what was recorded before).
    public func save(_ importer: ChatInviteImporterRecord) throws(SQLiteError) {
        try run(
            "INSERT OR REPLACE INTO chat_invite_importers (\(Self.importerColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                .integer(importer.peerKind.rawValue), .integer(importer.peerId), .integer(importer.userId),
                .text(importer.hash), .integer(Int64(importer.date)), .integer(importer.requested ? 1 : 0),
                .optional(importer.approvedBy),
            ])
    }

    /// What is recorded of `userId` and the conversation's links.
    public func importer(
        peerKind: InvitePeerKind, peerId: Int64, userId: Int64
    ) throws(SQLiteError) -> ChatInviteImporterRecord? {
        try row(
            """
            SELECT \(Self.importerColumns) FROM chat_invite_importers WHERE peer_kind = ? AND peer_id = ? AND user_id = ?
            """, [.integer(peerKind.rawValue), .integer(peerId), .integer(userId)], Self.importer)
    }

    /// Forgets `userId`'s join request (or join) to a conversation.
    public func deleteImporter(peerKind: InvitePeerKind, peerId: Int64, userId: Int64) throws(SQLiteError) {
        try run(
            "DELETE FROM chat_invite_importers WHERE peer_kind = ? AND peer_id = ? AND user_id = ?",
            [.integer(peerKind.rawValue), .integer(peerId), .integer(userId)])
    }

    /// Who joined (`requested` false) or asks to join (true) a conversation, through link `hash` when given, newest
    /// first; those older than `before` (date, then user id) when given; at most `limit`.
    public func importers(
        peerKind: InvitePeerKind, peerId: Int64, requested: Bool, hash: String?,
        before: (date: Int32, userId: Int64)?, limit: Int
    ) throws(SQLiteError) -> [ChatInviteImporterRecord] {
        var sql = """
            SELECT \(Self.importerColumns) FROM chat_invite_importers
            WHERE peer_kind = ?1 AND peer_id = ?2 AND requested = ?3
            """
        var values: [SQLValue] = [
            .integer(peerKind.rawValue), .integer(peerId), .integer(requested ? 1 : 0), .integer(Int64(max(0, limit))),
        ]
        if let hash {
            sql += " AND hash = ?\(values.count + 1)"
            values.append(.text(hash))
        }
        if let before {
            let date = values.count + 1
            sql += " AND (date < ?\(date) OR (date = ?\(date) AND user_id < ?\(date + 1)))"
            values += [.integer(Int64(before.date)), .integer(before.userId)]
        }
        sql += " ORDER BY date DESC, user_id DESC LIMIT ?4"
        return try rows(sql, values, Self.importer)
    }

    /// How many join requests wait on a conversation.
    public func pendingRequestCount(peerKind: InvitePeerKind, peerId: Int64) throws(SQLiteError) -> Int {
        Int(
            try integer(
                "SELECT count(*) FROM chat_invite_importers WHERE peer_kind = ? AND peer_id = ? AND requested = 1",
                [.integer(peerKind.rawValue), .integer(peerId)]) ?? 0)
    }
}

extension StoreTransaction {
    /// How many join requests wait on link `hash`.
    public func pendingRequestCount(hash: String) throws(SQLiteError) -> Int {
        Int(
            try integer(
                "SELECT count(*) FROM chat_invite_importers WHERE hash = ? AND requested = 1", [.text(hash)]) ?? 0)
    }
}
