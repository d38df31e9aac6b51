public import SQLite

/// Drafts (migration 19; core.telegram.org "Message drafts"): one per account and chat.
extension StoreTransaction {
    static func draft(_ row: Statement) -> DraftRecord {
        DraftRecord(
            owner: row.int64(0), peerKind: DraftRecord.PeerKind(rawValue: row.int64(1)) ?? .user, peerId: row.int64(2),
            text: row.text(3), entities: row.optionalBytes(4), replyTo: row.optionalInt64(5),
            noWebpage: row.int64(6) != 0, date: Int32(truncatingIfNeeded: row.int64(7)))
    }

    static let draftColumns = "owner, peer_kind, peer_id, text, entities, reply_to, no_webpage, date"

    /// Stores `draft`, replacing the owner's draft in that chat.
    public func saveDraft(_ draft: DraftRecord) throws(SQLiteError) {
        try run(
            """
            INSERT OR REPLACE INTO drafts (\(Self.draftColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(draft.owner), .integer(draft.peerKind.rawValue), .integer(draft.peerId), .text(draft.text),
                .optional(draft.entities), .optional(draft.replyTo), .integer(draft.noWebpage ? 1 : 0),
                .integer(Int64(draft.date)),
            ])
    }

    /// `owner`'s draft in the chat, if any.
    public func draft(owner: Int64, peerKind: DraftRecord.PeerKind, peerId: Int64) throws(SQLiteError) -> DraftRecord? {
        try row(
            "SELECT \(Self.draftColumns) FROM drafts WHERE owner = ? AND peer_kind = ? AND peer_id = ?",
            [.integer(owner), .integer(peerKind.rawValue), .integer(peerId)], Self.draft)
    }

    /// Removes `owner`'s draft in the chat; returns whether there was one.
    @discardableResult
    public func deleteDraft(owner: Int64, peerKind: DraftRecord.PeerKind, peerId: Int64) throws(SQLiteError) -> Bool {
        try run(
            "DELETE FROM drafts WHERE owner = ? AND peer_kind = ? AND peer_id = ?",
            [.integer(owner), .integer(peerKind.rawValue), .integer(peerId)]) > 0
    }

    /// `owner`'s drafts, newest first, at most `limit`.
    public func drafts(owner: Int64, limit: Int) throws(SQLiteError) -> [DraftRecord] {
        try rows(
            "SELECT \(Self.draftColumns) FROM drafts WHERE owner = ? ORDER BY date DESC, peer_kind, peer_id LIMIT ?",
            [.integer(owner), .integer(Int64(max(0, limit)))], Self.draft)
    }

    /// How many drafts `owner` has.
    public func draftCount(owner: Int64) throws(SQLiteError) -> Int {
        Int(try integer("SELECT count(*) FROM drafts WHERE owner = ?", [.integer(owner)]) ?? 0)
    }
}
