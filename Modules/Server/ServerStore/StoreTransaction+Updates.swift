public import SQLite

extension StoreTransaction {
    /// `userId`'s update state.
    public func updateState(userId: Int64) throws(SQLiteError) -> UpdateStateRecord? {
        try row("SELECT pts, qts, seq, date FROM user_state WHERE user_id = ?", [.integer(userId)]) {
            UpdateStateRecord(
                pts: $0.int64(0), qts: $0.int64(1), seq: $0.int64(2), date: Int32(truncatingIfNeeded: $0.int64(3)))
        }
    }

    /// Moves `owner`'s seq (core.telegram.org "Working with updates": the sequence of `updates` and
    /// `updatesCombined` that carry updates outside pts and qts) on by `count`; returns the new seq, or `nil` for an
    /// account without a state.
    public func advanceSeq(owner: Int64, by count: Int64) throws(SQLiteError) -> Int64? {
        guard let current = try integer("SELECT seq FROM user_state WHERE user_id = ?", [.integer(owner)]) else {
            return nil
        }
        let seq = current + count
        try run("UPDATE user_state SET seq = ? WHERE user_id = ?", [.integer(seq), .integer(owner)])
        return seq
    }

    /// Stores one pts update of `owner` (core.telegram.org "Working with updates": the update moves pts from
    /// `pts − ptsCount` to `pts`); `body` makes the serialized update from its pts. Returns the new pts.
    public func appendUpdate(
        owner: Int64, ptsCount: Int64, date: Int32, body: (Int64) -> [UInt8]
    ) throws(SQLiteError) -> Int64 {
        let current = try integer("SELECT pts FROM user_state WHERE user_id = ?", [.integer(owner)]) ?? 0
        let pts = current + ptsCount
        try run(
            "UPDATE user_state SET pts = ?, date = ? WHERE user_id = ?",
            [.integer(pts), .integer(Int64(date)), .integer(owner)])
        try run(
            "INSERT INTO updates (owner, pts, pts_count, date, body) VALUES (?, ?, ?, ?, ?)",
            [.integer(owner), .integer(pts), .integer(ptsCount), .integer(Int64(date)), .blob(body(pts))])
        return pts
    }

    /// `owner`'s stored updates after `pts`, oldest first, at most `limit`.
    public func updates(owner: Int64, after pts: Int64, limit: Int) throws(SQLiteError) -> [UpdateRecord] {
        try rows(
            "SELECT pts, pts_count, date, body FROM updates WHERE owner = ? AND pts > ? ORDER BY pts LIMIT ?",
            [.integer(owner), .integer(pts), .integer(Int64(limit))]
        ) {
            UpdateRecord(
                pts: $0.int64(0), ptsCount: $0.int64(1), date: Int32(truncatingIfNeeded: $0.int64(2)), body: $0.bytes(3)
            )
        }
    }
}
