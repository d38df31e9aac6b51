import MTProtoTransport
import Network
import Testing

/// The connection's timing rules on virtual time: the watchdog and the reconnect backoff, with no socket and no sleep.
@Suite struct ConnectionTimingTests {
    @Test func aSilentSocketThatOwesAnAnswerIsReplacedAndAnIdleOneIsPinged() {
        var watchdog = ConnectionWatchdog(silenceTimeout: 15, keepaliveInterval: 30)
        // A request goes out at t = 100 on a socket last heard at 100.
        #expect(watchdog.check(now: 110, lastReceived: 100, awaitingAnswer: true) == .none)
        #expect(watchdog.check(now: 115, lastReceived: 100, awaitingAnswer: true) == .none)
        #expect(watchdog.check(now: 115.5, lastReceived: 100, awaitingAnswer: true) == .replaceSocket)
        // Answers keep it alive.
        #expect(watchdog.check(now: 200, lastReceived: 199, awaitingAnswer: true) == .none)
        // Idle: a ping once 30 s have passed, not again until 30 s after it.
        #expect(watchdog.check(now: 229, lastReceived: 200, awaitingAnswer: false) == .none)
        #expect(watchdog.check(now: 231, lastReceived: 200, awaitingAnswer: false) == .ping)
        #expect(watchdog.check(now: 240, lastReceived: 200, awaitingAnswer: false) == .none)
        // The ping is owed an answer: silence past the timeout replaces the socket.
        #expect(watchdog.check(now: 247, lastReceived: 200, awaitingAnswer: true) == .replaceSocket)
        watchdog.reset()
        #expect(watchdog.check(now: 300, lastReceived: 260, awaitingAnswer: false) == .ping)
    }

    @Test func reconnectsBackOffWithJitterAndAStableConnectionResetsThem() {
        let policy = ReconnectPolicy(initialDelay: 0.1, maximumDelay: 8, multiplier: 2, jitter: 0.3, stableAfter: 10)
        var backoff = ReconnectBackoff(policy: policy)
        let delays = (0..<8).map { _ in backoff.connectionEnded(uptime: 1, random: 0) }
        #expect(delays == [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 8])
        // Jitter adds up to 30 %.
        var jittered = ReconnectBackoff(policy: policy)
        #expect(abs(jittered.connectionEnded(uptime: 1, random: 0.999_999) - 0.13) < 1e-6)
        // A connection that lived 10 s starts over.
        #expect(backoff.connectionEnded(uptime: 10, random: 0) == 0.1)
    }
}
