import ServerStore

/// A limit on tries of something that can be guessed or abused (core.telegram.org "Error handling": 420
/// `FLOOD_WAIT_X`, 400 `PHONE_NUMBER_FLOOD`): `free` tries pass, and the last of them blocks the next for `baseWait`
/// seconds; every further try blocks for twice as long as the one before, up to `maximumWait`. The count is forgotten once
/// `forgetAfter` seconds have passed since the last try and the last block ended, so a guesser who waits out each
/// block still meets longer and longer blocks. Pure: the caller passes the time and stores the record
/// (`StoreTransaction.attempts(key:)`, `save(_:now:sweepBefore:)`), so limits survive restarts.
struct AttemptLimit: Sendable, Equatable {
    /// What is counted; the record's key starts with it.
    let name: String
    let free: Int64
    let baseWait: Int64
    let maximumWait: Int64
    let forgetAfter: Int64

    /// Login-code requests for one phone number: 5 an hour, then `PHONE_NUMBER_FLOOD` for 5 minutes, doubling.
    static let codeRequestsPerPhone = AttemptLimit(
        name: "code-request", free: 5, baseWait: 300, maximumWait: 86_400, forgetAfter: 3_600)
    /// Login-code requests from one auth key, whatever the number: 20 an hour, then `FLOOD_WAIT_X` from 1 minute.
    static let codeRequestsPerKey = AttemptLimit(
        name: "code-request-key", free: 20, baseWait: 60, maximumWait: 86_400, forgetAfter: 3_600)
    /// Wrong login codes for one phone number, across every code sent to it: 10, then `FLOOD_WAIT_X` from 1 minute
    /// before the next try; a right code forgets them. With 5-digit codes, about 20 guesses a day get through.
    static let wrongCodesPerPhone = AttemptLimit(
        name: "code-guess", free: 10, baseWait: 60, maximumWait: 86_400, forgetAfter: 86_400)
    /// Wrong two-step passwords for one account: 5, then `FLOOD_WAIT_X` from 1 minute; the right one forgets them.
    static let wrongPasswordsPerAccount = AttemptLimit(
        name: "password-guess", free: 5, baseWait: 60, maximumWait: 86_400, forgetAfter: 86_400)

    /// Unknown invite-link hashes one account tries (`messages.checkChatInvite`, `importChatInvite`): 20 an hour,
    /// then `FLOOD_WAIT_X` from 1 minute. Hashes are 128 random bits, so this only keeps a guesser from costing work.
    static let inviteHashGuesses = AttemptLimit(
        name: "invite-guess", free: 20, baseWait: 60, maximumWait: 86_400, forgetAfter: 3_600)

    /// The record key for `subject` (a phone number, an account or key id).
    func key(_ subject: String) -> String { "\(name):\(subject)" }

    /// The seconds still to wait before another try at `now`, or nil when a try may go ahead.
    func wait(_ record: AttemptRecord?, now: Int64) -> Int64? {
        guard let record, record.blockedUntil > now else { return nil }
        return record.blockedUntil - now
    }

    /// The record after one more try at `now`.
    func counting(_ record: AttemptRecord?, key: String, now: Int64) -> AttemptRecord {
        var next = record ?? AttemptRecord(key: key, count: 0, last: now, blockedUntil: 0)
        if now - max(next.last, next.blockedUntil) > forgetAfter { next.count = 0 }
        next.count += 1
        next.last = now
        if next.count >= free {
            let doublings = min(next.count - free, 20)
            next.blockedUntil = now + min(maximumWait, baseWait << doublings)
        }
        return next
    }
}

extension ServerBackend {
    /// The longest `forgetAfter` of any limit: a record unused for longer, and not blocking, counts for nothing.
    static let longestForgetAfter: Int64 = 86_400

    /// Throws `error(wait)` while `limit` blocks `subject`'s tries.
    func checkAttempts(_ limit: AttemptLimit, _ subject: String, error: (Int64) -> APIError) throws {
        let record = try store.read { tx in try tx.attempts(key: limit.key(subject)) }
        if let wait = limit.wait(record, now: Int64(now)) { throw error(wait) }
    }

    /// Counts one try of `subject` under `limit` (in the caller's transaction).
    func countAttempt(_ limit: AttemptLimit, _ subject: String, tx: StoreTransaction) throws {
        let key = limit.key(subject)
        let time = Int64(now)
        try tx.save(
            limit.counting(try tx.attempts(key: key), key: key, now: time), now: time,
            sweepBefore: time - Self.longestForgetAfter)
    }
}
