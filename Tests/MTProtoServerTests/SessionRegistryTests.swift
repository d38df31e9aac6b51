import MTProtoCore
import MTProtoServer
import Testing

/// Sessions are bounded in number, per key and in time; a forgotten session comes back fresh on its next message.
@Suite struct SessionRegistryTests {
    static func key(_ seed: UInt8) -> AuthKey {
        AuthKey(bytes: (0..<256).map { UInt8(truncatingIfNeeded: Int($0) &* 31 &+ Int(seed)) })!
    }

    static let schedule = SaltSchedule(secret: [1, 2, 3])

    @Test func perKeyCapEvictsThatKeysLeastRecentlyUsed() {
        let registry = SessionRegistry(schedule: Self.schedule, maximumSessions: 1000, maximumSessionsPerKey: 3)
        let key = Self.key(1)
        let first = registry.session(for: key, sessionId: 1, now: 10)
        _ = registry.session(for: key, sessionId: 2, now: 11)
        _ = registry.session(for: key, sessionId: 3, now: 12)
        _ = first.with(now: 13) { $0.sessionId }  // session 1 used again: session 2 is now the oldest
        _ = registry.session(for: key, sessionId: 4, now: 14)
        #expect(registry.count == 3)
        #expect(registry.session(for: key, sessionId: 1, now: 15) === first)
        #expect(!registry.destroy(authKeyId: key.id, sessionId: 2), "session 2 was evicted")
        // Another key's sessions are untouched by this key's cap.
        _ = registry.session(for: Self.key(2), sessionId: 1, now: 16)
        #expect(registry.count == 4)
    }

    @Test func theGlobalCapHolds() {
        let registry = SessionRegistry(schedule: Self.schedule, maximumSessions: 200, maximumSessionsPerKey: 10_000)
        let key = Self.key(3)
        for id in 0..<5000 { _ = registry.session(for: key, sessionId: Int64(id), now: Double(id)) }
        #expect(registry.count <= 200)
        // The newest sessions are the ones kept.
        #expect(registry.destroy(authKeyId: key.id, sessionId: 4999))
        #expect(!registry.destroy(authKeyId: key.id, sessionId: 0))
    }

    @Test func idleSessionsAreSweptAndComeBackFresh() {
        let registry = SessionRegistry(schedule: Self.schedule, lifetime: 100)
        let key = Self.key(4)
        let old = registry.session(for: key, sessionId: 1, now: 0)
        _ = registry.session(for: key, sessionId: 2, now: 50)
        #expect(registry.sweep(now: 120) { _ in true } == 1)
        #expect(registry.count == 1)
        #expect(registry.session(for: key, sessionId: 1, now: 121) !== old)
    }
}
