public import SQLite

/// Each account's saved GIFs (migration 25; core.telegram.org methods `messages.saveGif`, `messages.getSavedGifs`):
/// document ids in the order they were saved; saving one again moves it to the front.
extension StoreTransaction {
    /// Puts `documentId` at the front of `owner`'s saved GIFs and keeps the newest `limit` (the oldest beyond it go,
    /// as Telegram drops them past `saved_gifs_limit`).
    public func saveGif(owner: Int64, documentId: Int64, limit: Int) throws(SQLiteError) {
        let top = try integer("SELECT MAX(position) FROM saved_gifs WHERE owner = ?", [.integer(owner)]) ?? 0
        try run(
            "INSERT OR REPLACE INTO saved_gifs (owner, document_id, position) VALUES (?, ?, ?)",
            [.integer(owner), .integer(documentId), .integer(top + 1)])
        try run(
            """
            DELETE FROM saved_gifs WHERE owner = ?1 AND position <= (
                SELECT position FROM saved_gifs WHERE owner = ?1 ORDER BY position DESC LIMIT 1 OFFSET ?2)
            """, [.integer(owner), .integer(Int64(max(0, limit)))])
    }

    /// Takes `documentId` out of `owner`'s saved GIFs; whether it was there.
    @discardableResult
    public func unsaveGif(owner: Int64, documentId: Int64) throws(SQLiteError) -> Bool {
        try run("DELETE FROM saved_gifs WHERE owner = ? AND document_id = ?", [.integer(owner), .integer(documentId)])
            > 0
    }

    /// `owner`'s saved GIFs, the latest saved first, at most `limit`.
    public func savedGifs(owner: Int64, limit: Int) throws(SQLiteError) -> [Int64] {
        try rows(
            "SELECT document_id FROM saved_gifs WHERE owner = ? ORDER BY position DESC LIMIT ?",
            [.integer(owner), .integer(Int64(max(0, limit)))]
        ) { $0.int64(0) }
    }
}
