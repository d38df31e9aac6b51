import PasswordSRP

/// Each account's last `account.getPassword` round (`srp_B`, `srp_id`) and the algorithm it offered for a new
/// password: one per account, the newest replacing the last. A round answers one proof (`takeRound`); the offered
/// algorithm stays until the entry expires.
///
/// Bounds (`ExpiringTable`): entries live `lifetime` seconds (10 minutes); at most `capacity` accounts (10,000) have
/// one — when full, expired entries are dropped first and a new account's round is then not kept.
final class PasswordRounds: Sendable {
    static let defaultCapacity = 10_000
    static let defaultLifetime: Double = 600

    private struct Entry: Sendable {
        var round: SRPServerRound?
        let offered: SRPAlgorithm
    }

    private let entries: ExpiringTable<Entry>

    init(
        clock: @escaping @Sendable () -> Double, capacity: Int = defaultCapacity, lifetime: Double = defaultLifetime
    ) {
        entries = ExpiringTable(clock: clock, capacity: capacity, lifetime: lifetime)
    }

    /// Keeps the account's round (`nil`: the account has no password) and offered algorithm, replacing its last.
    func remember(userId: Int64, round: SRPServerRound?, offered: SRPAlgorithm) {
        entries.keep(userId, Entry(round: round, offered: offered))
    }

    /// Takes the account's current round, once: the next call finds none until `remember` keeps a new one.
    func takeRound(userId: Int64) -> SRPServerRound? {
        entries.update(userId) { entry in
            defer { entry.round = nil }
            return entry.round
        }
    }

    /// The algorithm last offered to the account for a new password, while its entry lives.
    func offeredAlgorithm(userId: Int64) -> SRPAlgorithm? {
        entries.value(userId)?.offered
    }
}
