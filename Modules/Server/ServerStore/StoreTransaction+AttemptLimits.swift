public import SQLite

/// How often something that can be guessed or abused was tried under one key (a phone number's code requests, an
/// account's wrong passwords, …), and until when further tries are refused. Kept in the database, so the limits
/// survive a restart and do not depend on the connection that tried.
public struct AttemptRecord: Equatable, Sendable {
    /// What is counted, e.g. `code-guess:+99966…` (the server's `AttemptLimit` names the keys).
    public let key: String
    /// Tries counted since the record was last forgotten.
    public var count: Int64
    /// The time of the last counted try (seconds since 1970).
    public var last: Int64
    /// Tries are refused until then (0: not blocked).
    public var blockedUntil: Int64

    public init(key: String, count: Int64, last: Int64, blockedUntil: Int64) {
        self.key = key
        self.count = count
        self.last = last
        self.blockedUntil = blockedUntil
    }
}

extension StoreTransaction {
    /// The most attempt records kept; past it, records that no longer block anything and were last used before
    /// `sweepBefore` are forgotten first.
    public static let attemptRecordLimit = 100_000

    /// The record counting `key`'s tries, if any.
    public func attempts(key: String) throws(SQLiteError) -> AttemptRecord? {
        try row("SELECT key, count, last, blocked_until FROM attempt_limits WHERE key = ?", [.text(key)]) { row in
            AttemptRecord(key: row.text(0), count: row.int64(1), last: row.int64(2), blockedUntil: row.int64(3))
        }
    }

    /// Stores `record`; when the table is full, first forgets the records neither blocking at `now` nor used since
    /// `sweepBefore`.
    public func save(_ record: AttemptRecord, now: Int64, sweepBefore: Int64) throws(SQLiteError) {
        let count = try row("SELECT count(*) FROM attempt_limits", []) { $0.int64(0) } ?? 0
        if count >= Int64(Self.attemptRecordLimit) {
            try run(
                "DELETE FROM attempt_limits WHERE blocked_until <= ? AND last < ?",
                [.integer(now), .integer(sweepBefore)])
        }
        try run(
            "INSERT OR REPLACE INTO attempt_limits (key, count, last, blocked_until) VALUES (?, ?, ?, ?)",
            [.text(record.key), .integer(record.count), .integer(record.last), .integer(record.blockedUntil)])
    }

    /// Forgets `key`'s tries (the right code or password was given).
    public func forgetAttempts(key: String) throws(SQLiteError) {
        try run("DELETE FROM attempt_limits WHERE key = ?", [.text(key)])
    }

    /// A random secret the server keeps under `name` (made with `make` the first time it is asked for): keys for
    /// values clients must not be able to derive, such as file references.
    public func secret(named name: String, make: () -> [UInt8]) throws(SQLiteError) -> [UInt8] {
        if let found = try row("SELECT value FROM server_secrets WHERE name = ?", [.text(name)], { $0.bytes(0) }) {
            return found
        }
        let made = make()
        try run("INSERT INTO server_secrets (name, value) VALUES (?, ?)", [.text(name), .blob(made)])
        return made
    }
}
