public import SQLite

/// Blocked users (migration 17; core.telegram.org methods `contacts.block`, `contacts.unblock`, `contacts.getBlocked`):
/// whom each account blocked, and when.
extension StoreTransaction {
    /// `owner` blocks `userId` at `date`; returns whether it was not blocked before.
    public func block(owner: Int64, userId: Int64, date: Int32) throws(SQLiteError) -> Bool {
        try run(
            "INSERT OR IGNORE INTO blocks (owner, user_id, date) VALUES (?, ?, ?)",
            [.integer(owner), .integer(userId), .integer(Int64(date))]) > 0
    }

    /// `owner` unblocks `userId`; returns whether it was blocked.
    public func unblock(owner: Int64, userId: Int64) throws(SQLiteError) -> Bool {
        try run("DELETE FROM blocks WHERE owner = ? AND user_id = ?", [.integer(owner), .integer(userId)]) > 0
    }

    /// Whether `owner` blocked `userId`.
    public func isBlocked(owner: Int64, userId: Int64) throws(SQLiteError) -> Bool {
        try integer("SELECT 1 FROM blocks WHERE owner = ? AND user_id = ?", [.integer(owner), .integer(userId)]) != nil
    }

    /// Whom `owner` blocked, newest first: `limit` of them after the first `offset`, each with the date.
    public func blocked(owner: Int64, offset: Int, limit: Int) throws(SQLiteError) -> [(userId: Int64, date: Int32)] {
        try rows(
            "SELECT user_id, date FROM blocks WHERE owner = ? ORDER BY date DESC, user_id DESC LIMIT ? OFFSET ?",
            [.integer(owner), .integer(Int64(max(0, limit))), .integer(Int64(max(0, offset)))]
        ) { (userId: $0.int64(0), date: Int32(truncatingIfNeeded: $0.int64(1))) }
    }

    /// How many users `owner` blocked.
    public func blockedCount(owner: Int64) throws(SQLiteError) -> Int {
        Int(try integer("SELECT count(*) FROM blocks WHERE owner = ?", [.integer(owner)]) ?? 0)
    }
}
