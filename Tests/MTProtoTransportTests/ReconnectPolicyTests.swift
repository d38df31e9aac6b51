import MTProtoTransport
import Testing

@Suite struct ReconnectPolicyTests {
    @Test func delaysDoubleUpToTheCap() {
        let policy = ReconnectPolicy(initialDelay: 0.5, maximumDelay: 4, multiplier: 2, jitter: 0)
        #expect((0...7).map { policy.delay(afterFailures: $0, random: 0) } == [0, 0.5, 1, 2, 4, 4, 4, 4])
    }

    @Test func jitterAddsAtMostItsFraction() {
        let policy = ReconnectPolicy(initialDelay: 1, maximumDelay: 8, jitter: 0.25)
        #expect(policy.delay(afterFailures: 1, random: 0.999_999) < 1.25)
        #expect(policy.delay(afterFailures: 1, random: 0.5) == 1.125)
        #expect(policy.delay(afterFailures: 1, random: 7) == 1.25)  // clamped
    }

    @Test func aStableConnectionResetsTheBackoff() {
        var backoff = ReconnectBackoff(policy: ReconnectPolicy(initialDelay: 1, maximumDelay: 60, jitter: 0, stableAfter: 10))
        #expect(backoff.connectionEnded(uptime: 0, random: 0) == 1)
        #expect(backoff.connectionEnded(uptime: 2, random: 0) == 2)
        #expect(backoff.connectionEnded(uptime: 0, random: 0) == 4)
        #expect(backoff.connectionEnded(uptime: 30, random: 0) == 1)
        #expect(backoff.failures == 1)
    }
}
