/// Keys between the two steps of signing in to an account with a password: the code was right and answered
/// `SESSION_PASSWORD_NEEDED`, `auth.checkPassword` has not yet come.
///
/// Bounds (`ExpiringTable`): an entry lives `lifetime` seconds (10 minutes); at most `capacity` keys (10,000) wait at
/// once — when full, expired entries are dropped first and a new key is then not kept (it signs in again from the
/// code).
final class PendingPasswords: Sendable {
    static let defaultCapacity = 10_000
    static let defaultLifetime: Double = 600

    /// The account each waiting key signs in to.
    private let entries: ExpiringTable<Int64>

    init(
        clock: @escaping @Sendable () -> Double, capacity: Int = defaultCapacity, lifetime: Double = defaultLifetime
    ) {
        entries = ExpiringTable(clock: clock, capacity: capacity, lifetime: lifetime)
    }

    /// The account `authKeyId` is signing in to, if it passed the code step and has not expired.
    func userId(authKeyId: Int64) -> Int64? {
        entries.value(authKeyId)
    }

    /// Notes that `authKeyId` passed the code step of signing in to `userId`.
    func remember(authKeyId: Int64, userId: Int64) {
        entries.keep(authKeyId, userId)
    }

    /// Forgets `authKeyId`'s pending sign-in (it finished).
    func forget(authKeyId: Int64) {
        _ = entries.take(authKeyId)
    }
}
