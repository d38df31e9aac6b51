public import SQLite

/// Notify settings (migration 21; core.telegram.org `account.updateNotifySettings`): one row per account and chat or
/// kind of chat.
extension StoreTransaction {
    static func notifySettings(_ row: Statement) -> NotifySettingsRecord {
        NotifySettingsRecord(
            owner: row.int64(0), peerKind: NotifySettingsRecord.PeerKind(rawValue: row.int64(1)) ?? .user,
            peerId: row.int64(2), muteUntil: row.optionalInt64(3).map { Int32(truncatingIfNeeded: $0) },
            silent: row.optionalInt64(4).map { $0 != 0 }, showPreviews: row.optionalInt64(5).map { $0 != 0 },
            date: Int32(truncatingIfNeeded: row.int64(6)))
    }

    static let notifySettingsColumns = "owner, peer_kind, peer_id, mute_until, silent, show_previews, date"

    /// Stores `settings`, replacing the owner's for that chat or kind.
    public func saveNotifySettings(_ settings: NotifySettingsRecord) throws(SQLiteError) {
        try run(
            """
            INSERT OR REPLACE INTO notify_settings (\(Self.notifySettingsColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(settings.owner), .integer(settings.peerKind.rawValue), .integer(settings.peerId),
                .optional(settings.muteUntil.map(Int64.init)), .optional(settings.silent.map { $0 ? Int64(1) : 0 }),
                .optional(settings.showPreviews.map { $0 ? Int64(1) : 0 }), .integer(Int64(settings.date)),
            ])
    }

    /// `owner`'s settings for the chat or kind, if any were set.
    public func notifySettings(
        owner: Int64, peerKind: NotifySettingsRecord.PeerKind, peerId: Int64
    ) throws(SQLiteError) -> NotifySettingsRecord? {
        try row(
            """
            SELECT \(Self.notifySettingsColumns) FROM notify_settings WHERE owner = ? AND peer_kind = ? AND peer_id = ?
            """,
            [.integer(owner), .integer(peerKind.rawValue), .integer(peerId)], Self.notifySettings)
    }

    /// Removes `owner`'s settings for the chat or kind; returns whether there were some.
    @discardableResult
    public func deleteNotifySettings(
        owner: Int64, peerKind: NotifySettingsRecord.PeerKind, peerId: Int64
    ) throws(SQLiteError) -> Bool {
        try run(
            "DELETE FROM notify_settings WHERE owner = ? AND peer_kind = ? AND peer_id = ?",
            [.integer(owner), .integer(peerKind.rawValue), .integer(peerId)]) > 0
    }

    /// `owner`'s settings, newest first, at most `limit`.
    public func allNotifySettings(owner: Int64, limit: Int) throws(SQLiteError) -> [NotifySettingsRecord] {
        try rows(
            """
            SELECT \(Self.notifySettingsColumns) FROM notify_settings WHERE owner = ?
            ORDER BY date DESC, peer_kind, peer_id LIMIT ?
            """,
            [.integer(owner), .integer(Int64(max(0, limit)))], Self.notifySettings)
    }

    /// How many rows of settings `owner` has.
    public func notifySettingsCount(owner: Int64) throws(SQLiteError) -> Int {
        Int(try integer("SELECT count(*) FROM notify_settings WHERE owner = ?", [.integer(owner)]) ?? 0)
    }
}
