import CoreMetrics
import Foundation
public import MTProtoCore

/// A `ServerSession` shared by the connections that carry it (a client may reconnect, or use several connections
/// at once), with the time it was last used.
///
/// `@unchecked Sendable`: the session state machine and `lastUsed` are read and written under `lock`.
public final class SharedSession: @unchecked Sendable {
    private let lock = NSLock()
    private var session: ServerSession
    private(set) var lastUsed: Double

    init(_ session: ServerSession, now: Double) {
        self.session = session
        self.lastUsed = now
    }

    public var authKeyId: Int64 { session.authKey.id }
    public var sessionId: Int64 { session.sessionId }

    /// Runs `body` on the session under its lock.
    public func with<T>(now: Double, _ body: (inout ServerSession) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        lastUsed = max(lastUsed, now)
        return body(&session)
    }

    fileprivate func lastUsedTime() -> Double {
        lock.lock()
        defer { lock.unlock() }
        return lastUsed
    }
}

/// Every session the server keeps, by auth key and session id, and the salt each key's exchange produced — within
/// `maximumSessions` in all and `maximumSessionsPerKey` per key (the least recently used goes first), and forgotten
/// after `lifetime` seconds unused (`sweep`). A forgotten session is re-created on its next message, which then gets
/// `new_session_created`, as after a server restart.
///
/// Metrics: `tg_server_sessions` (sessions kept now), `tg_server_sessions_created_total`.
///
/// `@unchecked Sendable`: the tables are read and written under `lock`; sessions guard their own state.
public final class SessionRegistry: @unchecked Sendable {
    private struct Key: Hashable {
        let authKeyId: Int64
        let sessionId: Int64
    }

    private let lock = NSLock()
    private var sessions: [Key: SharedSession] = [:]
    private var perKey: [Int64: Set<Int64>] = [:]
    private var handshakeSalts: [Int64: Int64] = [:]
    private let schedule: SaltSchedule
    public let maximumSessions: Int
    public let maximumSessionsPerKey: Int
    public let lifetime: Double

    public init(
        schedule: SaltSchedule, maximumSessions: Int = 100_000, maximumSessionsPerKey: Int = 64,
        lifetime: Double = 6 * 3600
    ) {
        self.schedule = schedule
        self.maximumSessions = max(1, maximumSessions)
        self.maximumSessionsPerKey = max(1, maximumSessionsPerKey)
        self.lifetime = lifetime
    }

    /// Records the first salt of a freshly created key.
    public func keyCreated(_ key: AuthKey, salt: Int64) {
        lock.lock()
        handshakeSalts[key.id] = salt
        lock.unlock()
    }

    /// The session `sessionId` of `key`, created on first use at `now`.
    public func session(for key: AuthKey, sessionId: Int64, now: Double) -> SharedSession {
        lock.lock()
        defer { lock.unlock() }
        let id = Key(authKeyId: key.id, sessionId: sessionId)
        if let session = sessions[id] { return session }
        let session = SharedSession(
            ServerSession(
                authKey: key, sessionId: sessionId, schedule: schedule, handshakeSalt: handshakeSalts[key.id]),
            now: now)
        sessions[id] = session
        perKey[key.id, default: []].insert(sessionId)
        if perKey[key.id]!.count > maximumSessionsPerKey {
            let own = perKey[key.id]!.filter { $0 != sessionId }.map { Key(authKeyId: key.id, sessionId: $0) }
            evictLeastRecentlyUsed(among: own)
        }
        if sessions.count > maximumSessions {
            // One scan frees 1 % of the table, so a client opening sessions at a high rate costs one scan per
            // hundred of them rather than one per session.
            let batch = max(1, maximumSessions / 100)
            let victims = sessions.filter { $0.key != id }.map { ($0.key, $0.value.lastUsedTime()) }
                .sorted { $0.1 < $1.1 }.prefix(batch)
            for (victim, _) in victims { remove(victim) }
        }
        Counter(label: "tg_server_sessions_created_total").increment()
        recordCount()
        return session
    }

    /// Forgets session `sessionId` of key `authKeyId` (`destroy_session`); returns whether it existed.
    public func destroy(authKeyId: Int64, sessionId: Int64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        defer { recordCount() }
        return remove(Key(authKeyId: authKeyId, sessionId: sessionId))
    }

    /// Forgets sessions unused for `lifetime` seconds as of `now`, and the handshake salts of keys no longer
    /// known to `keyExists`; returns how many sessions went.
    @discardableResult
    public func sweep(now: Double, keyExists: (Int64) -> Bool) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let stale = sessions.filter { now - $0.value.lastUsedTime() >= lifetime }.map(\.key)
        for key in stale { remove(key) }
        recordCount()
        handshakeSalts = handshakeSalts.filter { keyExists($0.key) }
        return stale.count
    }

    /// How many sessions exist.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return sessions.count
    }

    /// The `tg_server_sessions` gauge; called under `lock`.
    private func recordCount() {
        Gauge(label: "tg_server_sessions").record(sessions.count)
    }

    private func evictLeastRecentlyUsed(among candidates: [Key]) {
        guard let oldest = candidates.min(by: { sessions[$0]!.lastUsedTime() < sessions[$1]!.lastUsedTime() }) else {
            return
        }
        remove(oldest)
    }

    @discardableResult
    private func remove(_ key: Key) -> Bool {
        guard sessions.removeValue(forKey: key) != nil else { return false }
        perKey[key.authKeyId]?.remove(key.sessionId)
        if perKey[key.authKeyId]?.isEmpty == true { perKey[key.authKeyId] = nil }
        return true
    }
}
