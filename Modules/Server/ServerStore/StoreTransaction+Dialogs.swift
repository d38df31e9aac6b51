public import SQLite

extension StoreTransaction {
    private static let dialogSelect = """
        SELECT d.owner, d.peer_kind, d.peer_id, d.top_message, d.read_inbox_max, d.read_outbox_max, d.pinned,
        (SELECT count(*) FROM messages m WHERE m.owner = d.owner AND m.peer_kind = d.peer_kind AND m.peer_id = d.peer_id
         AND m.outgoing = 0 AND m.id > d.read_inbox_max)
        FROM dialogs d
        """

    static func dialog(_ row: Statement) -> DialogRecord {
        DialogRecord(
            owner: row.int64(0), peer: PeerRef(PeerRef.Kind(rawValue: row.int64(1)) ?? .user, row.int64(2)),
            topMessage: row.int64(3), readInboxMax: row.int64(4), readOutboxMax: row.int64(5), pinned: row.int64(6),
            unreadCount: Int32(clamping: row.int64(7)))
    }

    /// One conversation of `owner`.
    public func dialog(owner: Int64, peer: PeerRef) throws(SQLiteError) -> DialogRecord? {
        try row(
            "\(Self.dialogSelect) WHERE d.owner = ? AND d.peer_kind = ? AND d.peer_id = ?",
            [.integer(owner), .integer(peer.kind.rawValue), .integer(peer.id)], Self.dialog)
    }

    /// Whether `owner` has a conversation with `peer` (without counting its unread messages, as `dialog` does).
    public func hasDialog(owner: Int64, peer: PeerRef) throws(SQLiteError) -> Bool {
        try integer(
            "SELECT 1 FROM dialogs WHERE owner = ? AND peer_kind = ? AND peer_id = ?",
            [.integer(owner), .integer(peer.kind.rawValue), .integer(peer.id)]) != nil
    }

    /// `owner`'s dialog list as `messages.getDialogs` orders it: pinned ones first (most recently pinned first), then
    /// by top message, newest first (message ids of one box grow with their dates, so this is also newest date first);
    /// past the first page, unpinned ones whose top message is older than `offsetId` (a top message id) when set,
    /// else than `offsetDate` (a top message's date) when set; at most `limit`.
    public func dialogs(
        owner: Int64, pinnedOnly: Bool = false, offsetId: Int64 = 0, offsetDate: Int32 = 0, limit: Int
    ) throws(SQLiteError) -> [DialogRecord] {
        let firstPage = offsetId <= 0 && offsetDate <= 0
        // Pinned dialogs lead the first page only.
        let pinned =
            !firstPage && !pinnedOnly
            ? []
            : try rows(
                "\(Self.dialogSelect) WHERE d.owner = ? AND d.pinned > 0 ORDER BY d.pinned DESC", [.integer(owner)],
                Self.dialog)
        if pinnedOnly { return Array(pinned.prefix(limit)) }
        let rest = limit - pinned.count
        guard rest > 0 else { return Array(pinned.prefix(limit)) }
        var sql = "\(Self.dialogSelect) WHERE d.owner = ?1 AND d.pinned = 0"
        var arguments: [SQLValue] = [.integer(owner), .integer(Int64(rest))]
        if offsetId > 0 {
            sql += " AND d.top_message < ?3"
            arguments.append(.integer(offsetId))
        } else if offsetDate > 0 {
            sql += " AND (SELECT m.date FROM messages m WHERE m.owner = d.owner AND m.id = d.top_message) < ?3"
            arguments.append(.integer(Int64(offsetDate)))
        }
        sql += " ORDER BY d.top_message DESC LIMIT ?2"
        return pinned + (try rows(sql, arguments, Self.dialog))
    }

    /// How many conversations `owner` has.
    public func dialogCount(owner: Int64) throws(SQLiteError) -> Int {
        Int(try integer("SELECT count(*) FROM dialogs WHERE owner = ?", [.integer(owner)]) ?? 0)
    }

    /// Marks incoming messages up to `maxId` read; returns the new inbox maximum when it moved.
    public func readInbox(owner: Int64, peer: PeerRef, maxId: Int64) throws(SQLiteError) -> Int64? {
        guard let dialog = try dialog(owner: owner, peer: peer) else { return nil }
        let target = min(maxId <= 0 ? dialog.topMessage : maxId, dialog.topMessage)
        guard target > dialog.readInboxMax else { return nil }
        try run(
            "UPDATE dialogs SET read_inbox_max = ? WHERE owner = ? AND peer_kind = ? AND peer_id = ?",
            [.integer(target), .integer(owner), .integer(peer.kind.rawValue), .integer(peer.id)])
        return target
    }

    /// Marks `owner`'s outgoing messages up to `maxId` as read by the other side; returns the new maximum when it
    /// moved.
    public func readOutbox(owner: Int64, peer: PeerRef, maxId: Int64) throws(SQLiteError) -> Int64? {
        guard let dialog = try dialog(owner: owner, peer: peer), maxId > dialog.readOutboxMax else { return nil }
        try run(
            "UPDATE dialogs SET read_outbox_max = ? WHERE owner = ? AND peer_kind = ? AND peer_id = ?",
            [.integer(maxId), .integer(owner), .integer(peer.kind.rawValue), .integer(peer.id)])
        return maxId
    }

    /// Pins (above every pinned dialog) or unpins a dialog; returns whether it exists.
    public func setPinned(owner: Int64, peer: PeerRef, pinned: Bool) throws(SQLiteError) -> Bool {
        // One order for the box's dialogs and the owner's channels (`setChannelPinned`).
        let order =
            pinned
            ? max(
                try integer("SELECT max(pinned) FROM dialogs WHERE owner = ?", [.integer(owner)]) ?? 0,
                try integer("SELECT max(pinned) FROM channel_members WHERE user_id = ?", [.integer(owner)]) ?? 0) + 1
            : 0
        return try run(
            "UPDATE dialogs SET pinned = ? WHERE owner = ? AND peer_kind = ? AND peer_id = ?",
            [.integer(order), .integer(owner), .integer(peer.kind.rawValue), .integer(peer.id)]) > 0
    }
}

extension StoreTransaction {
    /// The newest outgoing message of `owner` to `peer` that is not newer than the message `globalId`.
    public func lastOutgoing(owner: Int64, peer: PeerRef, upToGlobalId globalId: Int64) throws(SQLiteError) -> Int64? {
        try integer(
            """
            SELECT max(id) FROM messages WHERE owner = ? AND peer_kind = ? AND peer_id = ? AND outgoing = 1 AND global_id <= ?
            """, [.integer(owner), .integer(peer.kind.rawValue), .integer(peer.id), .integer(globalId)])
    }
}
