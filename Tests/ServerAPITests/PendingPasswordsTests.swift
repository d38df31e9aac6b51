import Testing

@testable import ServerAPI

/// `PendingPasswords`: keys between `SESSION_PASSWORD_NEEDED` and `auth.checkPassword`, for ten minutes, at most
/// 10,000 at once.
@Suite struct PendingPasswordsTests {
    @Test func aKeyWaitsForItsAccountUntilForgotten() {
        let pending = PendingPasswords(clock: { 1_800_000_000 })
        pending.remember(authKeyId: 1, userId: 100)
        pending.remember(authKeyId: 2, userId: 200)
        #expect(pending.userId(authKeyId: 1) == 100)
        pending.forget(authKeyId: 1)
        #expect(pending.userId(authKeyId: 1) == nil)
        #expect(pending.userId(authKeyId: 2) == 200)
    }

    @Test func anEntryExpiresAfterTenMinutes() {
        let clock = AttackHarness.Clock()
        let pending = PendingPasswords(clock: { clock.now })
        pending.remember(authKeyId: 1, userId: 100)
        clock.advance(599)
        #expect(pending.userId(authKeyId: 1) == 100)
        clock.advance(1)
        #expect(pending.userId(authKeyId: 1) == nil)
    }

    @Test func atMostTenThousandKeysWaitUntilSomeExpire() {
        let clock = AttackHarness.Clock()
        let pending = PendingPasswords(clock: { clock.now })
        for key in Int64(1)...10_000 { pending.remember(authKeyId: key, userId: key) }
        pending.remember(authKeyId: 10_001, userId: 1)
        #expect(pending.userId(authKeyId: 10_001) == nil, "full: a new key is not kept")
        clock.advance(300)
        pending.remember(authKeyId: 1, userId: 42)
        #expect(pending.userId(authKeyId: 1) == 42, "a key that waits already is renewed")
        clock.advance(300)
        pending.remember(authKeyId: 10_001, userId: 1)
        #expect(pending.userId(authKeyId: 10_001) == 1, "expired entries make room")
        #expect(pending.userId(authKeyId: 2) == nil)
    }
}
