public import SQLite

/// Presence and its privacy (migration 16; core.telegram.org "Privacy", constructor `userStatusOffline`): each
/// account's privacy rules by key, when each account was last online, and who watches an account's status.
extension StoreTransaction {
    /// `owner`'s rules for privacy key `key` (a serialized `Vector<PrivacyRule>`), or `nil` when never set.
    public func privacyRules(owner: Int64, key: String) throws(SQLiteError) -> [UInt8]? {
        try row("SELECT rules FROM privacy_rules WHERE owner = ? AND key = ?", [.integer(owner), .text(key)]) {
            $0.bytes(0)
        }
    }

    /// Replaces `owner`'s rules for privacy key `key`.
    public func setPrivacyRules(owner: Int64, key: String, rules: [UInt8]) throws(SQLiteError) {
        try run(
            "INSERT OR REPLACE INTO privacy_rules (owner, key, rules) VALUES (?, ?, ?)",
            [.integer(owner), .text(key), .blob(rules)])
    }

    /// When `userId` was last online (a unix time), or `nil` when never recorded.
    public func wasOnline(userId: Int64) throws(SQLiteError) -> Int32? {
        try integer("SELECT was_online FROM presences WHERE user_id = ?", [.integer(userId)]).map {
            Int32(truncatingIfNeeded: $0)
        }
    }

    /// Records that `userId` was online at `date`.
    public func setWasOnline(userId: Int64, date: Int32) throws(SQLiteError) {
        try run(
            "INSERT OR REPLACE INTO presences (user_id, was_online) VALUES (?, ?)",
            [.integer(userId), .integer(Int64(date))])
    }

    /// Whether `userId` is in `owner`'s contact list.
    public func isContact(owner: Int64, userId: Int64) throws(SQLiteError) -> Bool {
        try integer("SELECT 1 FROM contacts WHERE owner = ? AND user_id = ?", [.integer(owner), .integer(userId)])
            != nil
    }

    /// Who follows `userId`'s status, as Telegram pushes `updateUserStatus`: accounts that have `userId` in their
    /// contacts, and accounts with a private chat with `userId`; `userId` itself left out; at most `limit`.
    public func statusWatchers(of userId: Int64, limit: Int) throws(SQLiteError) -> [Int64] {
        try rows(
            """
            SELECT owner FROM contacts WHERE user_id = ?1 AND owner != ?1
            UNION SELECT owner FROM dialogs WHERE peer_kind = 0 AND peer_id = ?1 AND owner != ?1
            ORDER BY 1 LIMIT ?2
            """, [.integer(userId), .integer(Int64(max(0, limit)))]
        ) { $0.int64(0) }
    }
}
