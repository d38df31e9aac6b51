public import SQLite

/// Scheduled messages (migration 20; core.telegram.org "Scheduled messages"): each account's, by chat and by date.
extension StoreTransaction {
    static func scheduled(_ row: Statement) -> ScheduledMessageRecord {
        ScheduledMessageRecord(
            owner: row.int64(0), id: row.int64(1),
            peerKind: ScheduledMessageRecord.PeerKind(rawValue: row.int64(2)) ?? .user, peerId: row.int64(3),
            inputPeer: row.optionalBytes(4) ?? [], date: Int32(truncatingIfNeeded: row.int64(5)), text: row.text(6),
            entities: row.optionalBytes(7), media: row.optionalBytes(8), mediaKind: row.int64(9),
            replyTo: row.optionalInt64(10), silent: row.int64(11) != 0, randomId: row.int64(12))
    }

    static let scheduledColumns = """
        owner, id, peer_kind, peer_id, input_peer, date, text, entities, media, media_kind, reply_to, silent, random_id
        """

    /// The next id of `owner`'s scheduled messages: never one given before, even after a deletion.
    public func allocateScheduledId(owner: Int64) throws(SQLiteError) -> Int64 {
        try nextValue(of: "scheduled-message-\(owner)")
    }

    /// Stores `message`.
    public func insertScheduled(_ message: ScheduledMessageRecord) throws(SQLiteError) {
        try run(
            "INSERT INTO scheduled_messages (\(Self.scheduledColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .integer(message.owner), .integer(message.id), .integer(message.peerKind.rawValue),
                .integer(message.peerId), .blob(message.inputPeer), .integer(Int64(message.date)),
                .text(message.text), .optional(message.entities), .optional(message.media),
                .integer(message.mediaKind), .optional(message.replyTo), .integer(message.silent ? 1 : 0),
                .integer(message.randomId),
            ])
    }

    /// Replaces the date, text, entities and media of `message` (found by owner and id); returns whether it was there.
    @discardableResult
    public func updateScheduled(_ message: ScheduledMessageRecord) throws(SQLiteError) -> Bool {
        try run(
            "UPDATE scheduled_messages SET date = ?, text = ?, entities = ?, media = ? WHERE owner = ? AND id = ?",
            [
                .integer(Int64(message.date)), .text(message.text), .optional(message.entities),
                .optional(message.media), .integer(message.owner), .integer(message.id),
            ]) > 0
    }

    /// `owner`'s scheduled messages in the chat, soonest first.
    public func scheduledMessages(
        owner: Int64, peerKind: ScheduledMessageRecord.PeerKind, peerId: Int64
    ) throws(SQLiteError) -> [ScheduledMessageRecord] {
        try rows(
            """
            SELECT \(Self.scheduledColumns) FROM scheduled_messages WHERE owner = ? AND peer_kind = ? AND peer_id = ?
            ORDER BY date, id
            """,
            [.integer(owner), .integer(peerKind.rawValue), .integer(peerId)], Self.scheduled)
    }

    /// `owner`'s scheduled message `id`, if any.
    public func scheduledMessage(owner: Int64, id: Int64) throws(SQLiteError) -> ScheduledMessageRecord? {
        try row(
            "SELECT \(Self.scheduledColumns) FROM scheduled_messages WHERE owner = ? AND id = ?",
            [.integer(owner), .integer(id)], Self.scheduled)
    }

    /// How many scheduled messages `owner` has in the chat.
    public func scheduledCount(
        owner: Int64, peerKind: ScheduledMessageRecord.PeerKind, peerId: Int64
    ) throws(SQLiteError) -> Int {
        Int(
            try integer(
                "SELECT count(*) FROM scheduled_messages WHERE owner = ? AND peer_kind = ? AND peer_id = ?",
                [.integer(owner), .integer(peerKind.rawValue), .integer(peerId)]) ?? 0)
    }

    /// Every account's scheduled messages due at `date` or before, soonest first, at most `limit`.
    public func dueScheduledMessages(at date: Int32, limit: Int) throws(SQLiteError) -> [ScheduledMessageRecord] {
        try rows(
            "SELECT \(Self.scheduledColumns) FROM scheduled_messages WHERE date <= ? ORDER BY date, owner, id LIMIT ?",
            [.integer(Int64(date)), .integer(Int64(max(0, limit)))], Self.scheduled)
    }

    /// Removes `owner`'s scheduled message `id`; returns whether there was one.
    @discardableResult
    public func deleteScheduled(owner: Int64, id: Int64) throws(SQLiteError) -> Bool {
        try run("DELETE FROM scheduled_messages WHERE owner = ? AND id = ?", [.integer(owner), .integer(id)]) > 0
    }
}
