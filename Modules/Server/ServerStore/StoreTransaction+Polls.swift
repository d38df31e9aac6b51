public import SQLite

/// Polls and their votes (migration 22; core.telegram.org "Polls and quizzes").
extension StoreTransaction {
    public func insert(_ poll: PollRecord) throws(SQLiteError) {
        try run(
            """
            INSERT INTO polls (id, creator, poll, correct, solution, solution_entities, closed, close_date, date)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(poll.id), .integer(poll.creator), .blob(poll.poll),
                .text(poll.correct.map(String.init).joined(separator: ",")), .optional(poll.solution),
                .optional(poll.solutionEntities), .integer(poll.closed ? 1 : 0),
                .optional(poll.closeDate.map(Int64.init)),
                .integer(Int64(poll.date)),
            ])
    }

    public func poll(id: Int64) throws(SQLiteError) -> PollRecord? {
        try row(
            """
            SELECT id, creator, poll, correct, solution, solution_entities, closed, close_date, date FROM polls
            WHERE id = ?
            """, [.integer(id)]
        ) { row in
            PollRecord(
                id: row.int64(0), creator: row.int64(1), poll: row.bytes(2),
                correct: row.text(3).split(separator: ",").compactMap { Int($0) }, solution: row.optionalText(4),
                solutionEntities: row.optionalBytes(5), closed: row.int64(6) != 0,
                closeDate: row.optionalInt64(7).map { Int32(truncatingIfNeeded: $0) },
                date: Int32(truncatingIfNeeded: row.int64(8)))
        }
    }

    /// Closes poll `id` for good, with its `Poll` as it now is (`closed` set).
    public func closePoll(id: Int64, poll: [UInt8]) throws(SQLiteError) {
        try run("UPDATE polls SET closed = 1, poll = ? WHERE id = ?", [.blob(poll), .integer(id)])
    }

    /// Every answer chosen in poll `id`, oldest first.
    public func pollVotes(pollId: Int64) throws(SQLiteError) -> [PollVoteRecord] {
        try rows(
            "SELECT user_id, option, date FROM poll_votes WHERE poll_id = ? ORDER BY date, user_id, option",
            [.integer(pollId)]
        ) { row in
            PollVoteRecord(userId: row.int64(0), option: row.bytes(1), date: Int32(truncatingIfNeeded: row.int64(2)))
        }
    }

    /// Replaces `userId`'s answers in poll `pollId` with `options` (empty takes the vote back).
    public func setPollVote(
        pollId: Int64, userId: Int64, options: [[UInt8]], date: Int32
    ) throws(SQLiteError) {
        try run("DELETE FROM poll_votes WHERE poll_id = ? AND user_id = ?", [.integer(pollId), .integer(userId)])
        for option in options {
            try run(
                "INSERT INTO poll_votes (poll_id, user_id, option, date) VALUES (?, ?, ?, ?)",
                [.integer(pollId), .integer(userId), .blob(option), .integer(Int64(date))])
        }
    }
}
