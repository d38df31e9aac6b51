import Synchronization

/// Who is online now (core.telegram.org constructor `userStatusOnline`): each account online until a time, kept in
/// memory — a restart leaves everybody offline, with the last time each was online in the store (`presences`).
/// Bounded like every table a client fills: at most `capacity` accounts at once; when full, those whose time ran out
/// are dropped first, and past that an account is not marked (it shows offline until there is room).
final class Presences: Sendable {
    /// How long `account.updateStatus(offline: false)` or a session's activity keeps an account online: Telegram's
    /// clients repeat the call while open, and Telegram's servers answer with `expires` about five minutes ahead.
    static let onlinePeriod: Double = 300

    private let online = Mutex<[Int64: Double]>([:])
    let capacity: Int

    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// Marks `userId` online until `now + onlinePeriod`; returns whether it was offline before (a change to push).
    @discardableResult
    func markOnline(_ userId: Int64, now: Double) -> Bool {
        online.withLock { online in
            let wasOnline = (online[userId] ?? 0) > now
            if online.count >= capacity && online[userId] == nil { online = online.filter { $0.value > now } }
            guard online.count < capacity || online[userId] != nil else { return false }
            online[userId] = now + Self.onlinePeriod
            return !wasOnline
        }
    }

    /// Marks `userId` offline; returns whether it was online (a change to push).
    @discardableResult
    func markOffline(_ userId: Int64, now: Double) -> Bool {
        online.withLock { online in
            guard let until = online.removeValue(forKey: userId) else { return false }
            return until > now
        }
    }

    /// Until when `userId` is online, or `nil` when it is not.
    func onlineUntil(_ userId: Int64, now: Double) -> Double? {
        online.withLock { online in
            guard let until = online[userId], until > now else { return nil }
            return until
        }
    }
}
