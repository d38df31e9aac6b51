import PasswordSRP
import Synchronization

/// Each account's last `account.getPassword` round (`srp_B`, `srp_id`) and the algorithm it offered for a new
/// password: one per account, the newest replacing the last. A round answers one proof (`takeRound`); the offered
/// algorithm stays until the entry expires.
///
/// Bounds: entries live `lifetime` seconds (10 minutes); at most `capacity` accounts (10,000) have one — when full,
/// expired entries are dropped first and a new account's round is then not kept.
final class PasswordRounds: Sendable {
    static let defaultCapacity = 10_000
    static let defaultLifetime: Double = 600

    private struct Entry: Sendable {
        var round: SRPServerRound?
        let offered: SRPAlgorithm
        let expires: Double
    }

    private let entries = Mutex<[Int64: Entry]>([:])
    private let clock: @Sendable () -> Double
    let capacity: Int
    let lifetime: Double

    init(
        clock: @escaping @Sendable () -> Double, capacity: Int = defaultCapacity, lifetime: Double = defaultLifetime
    ) {
        self.clock = clock
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// Keeps the account's round (`nil`: the account has no password) and offered algorithm, replacing its last.
    func remember(userId: Int64, round: SRPServerRound?, offered: SRPAlgorithm) {
        let now = clock()
        entries.withLock { entries in
            if entries.count >= capacity { entries = entries.filter { $0.value.expires > now } }
            guard entries.count < capacity || entries[userId] != nil else { return }
            entries[userId] = Entry(round: round, offered: offered, expires: now + lifetime)
        }
    }

    /// Takes the account's current round, once: the next call finds none until `remember` keeps a new one.
    func takeRound(userId: Int64) -> SRPServerRound? {
        let now = clock()
        return entries.withLock { entries in
            guard var entry = entries[userId], entry.expires > now, let round = entry.round else { return nil }
            entry.round = nil
            entries[userId] = entry
            return round
        }
    }

    /// The algorithm last offered to the account for a new password, while its entry lives.
    func offeredAlgorithm(userId: Int64) -> SRPAlgorithm? {
        let now = clock()
        return entries.withLock { entries in
            guard let entry = entries[userId], entry.expires > now else { return nil }
            return entry.offered
        }
    }
}
