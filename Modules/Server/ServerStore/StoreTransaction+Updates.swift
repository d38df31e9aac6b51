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

    /// Stores an update of `owner`'s that carries no pts (`updateChatDefaultBannedRights`) at `owner`'s pts now, so
    /// `updates.getDifference` can hand it to a client that was away; pts does not move.
    public func appendUpdateWithoutPts(owner: Int64, date: Int32, body: [UInt8]) throws(SQLiteError) {
        let pts = try integer("SELECT pts FROM user_state WHERE user_id = ?", [.integer(owner)]) ?? 0
        try run(
            "INSERT INTO updates_without_pts (owner, pts, date, body) VALUES (?, ?, ?, ?)",
            [.integer(owner), .integer(pts), .integer(Int64(date)), .blob(body)])
    }

    /// `owner`'s updates without pts that a client at `pts` and `date` has not had, up to pts `upTo`, oldest first,
    /// at most `limit`: those made after its pts moved past `pts`, and those made at `pts` itself from its `date` on
    /// (a date is a second: one made in the second the client last heard from the server is handed over again).
    public func updatesWithoutPts(
        owner: Int64, after pts: Int64, date: Int32, upTo: Int64, limit: Int
    ) throws(SQLiteError) -> [UpdateRecord] {
        try rows(
            """
            SELECT pts, date, body FROM updates_without_pts WHERE owner = ?1 AND pts <= ?4
            AND (pts > ?2 OR (pts = ?2 AND date >= ?3)) ORDER BY pts, rowid LIMIT ?5
            """,
            [.integer(owner), .integer(pts), .integer(Int64(date)), .integer(upTo), .integer(Int64(max(0, limit)))]
        ) {
            UpdateRecord(pts: $0.int64(0), ptsCount: 0, date: Int32(truncatingIfNeeded: $0.int64(1)), body: $0.bytes(2))
        }
    }
}
