import Synchronization

/// Keys between the two steps of signing in to an account with a password: the code was right and answered
/// `SESSION_PASSWORD_NEEDED`, `auth.checkPassword` has not yet come.
///
/// Bounds: an entry lives `lifetime` seconds (10 minutes); at most `capacity` keys (10,000) wait at once — when full,
/// expired entries are dropped first and a new key is then not kept (it signs in again from the code).
final class PendingPasswords: Sendable {
    static let defaultCapacity = 10_000
    static let defaultLifetime: Double = 600

    private struct Entry: Sendable {
        let userId: Int64
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

    /// The account `authKeyId` is signing in to, if it passed the code step and has not expired.
    func userId(authKeyId: Int64) -> Int64? {
        let now = clock()
        return entries.withLock { entries in
            guard let entry = entries[authKeyId], entry.expires > now else { return nil }
            return entry.userId
        }
    }

    /// Notes that `authKeyId` passed the code step of signing in to `userId`.
    func remember(authKeyId: Int64, userId: Int64) {
        let now = clock()
        entries.withLock { entries in
            if entries.count >= capacity { entries = entries.filter { $0.value.expires > now } }
            guard entries.count < capacity || entries[authKeyId] != nil else { return }
            entries[authKeyId] = Entry(userId: userId, expires: now + lifetime)
        }
    }

    /// Forgets `authKeyId`'s pending sign-in (it finished).
    func forget(authKeyId: Int64) {
        _ = entries.withLock { $0.removeValue(forKey: authKeyId) }
    }
}
