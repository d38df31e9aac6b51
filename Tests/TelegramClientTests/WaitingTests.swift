import Foundation
import SwiftSignalKit
import Synchronization
import Testing

@testable import TelegramClient

/// The client's waits without a server: `firstValue`/`firstResult` resume on the signal's value, `waitUntil`
/// re-checks only when its signal fires; each ends at its timeout or on cancellation with the subscription disposed.
@Suite struct WaitingTests {
    /// A signal of `pipe`'s values that counts its live subscriptions.
    final class Probe: Sendable {
        let pipe = ValuePipe<Int>()
        private let live = Mutex(0)
        private let started = Mutex(0)
        var subscriptions: Int { live.withLock { $0 } }
        var everSubscribed: Bool { started.withLock { $0 > 0 } }

        var signal: Signal<Int, NoError> {
            Signal { subscriber in
                self.live.withLock { $0 += 1 }
                self.started.withLock { $0 += 1 }
                let inner = self.pipe.signal().start(next: { subscriber.putNext($0) })
                return ActionDisposable {
                    inner.dispose()
                    self.live.withLock { $0 -= 1 }
                }
            }
        }

        /// Puts `values` one after the other, `delay` seconds apart, from another thread.
        func put(_ values: [Int], every delay: Double) {
            Task.detached {
                for value in values {
                    try? await Task.sleep(for: .seconds(delay))
                    self.pipe.putNext(value)
                }
            }
        }
    }

    @Test func firstValueResumesOnTheFirstAcceptedValue() async throws {
        let probe = Probe()
        probe.put([1, 2, 3, 4], every: 0.05)
        let started = ContinuousClock.now
        let value = try await firstValue("three", of: probe.signal, timeout: 60, where: { $0 >= 3 })
        #expect(value == 3)
        // On the value, far from the timeout: with the live tests in one process the producer's 50 ms sleeps once
        // took 5.07 s in all (the cooperative pool was busy), and with two builds beside the tests (a load of 10)
        // more than 15 s, so the bound is half the timeout.
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(probe.subscriptions == 0)
    }

    @Test func aValueDeliveredOnSubscriptionResolvesAtOnce() async throws {
        let promise = ValuePromise(7)
        #expect(try await firstValue("seven", of: promise.get(), timeout: 10, where: { $0 == 7 }) == 7)
    }

    @Test func aTimeoutEndsTheWaitWithTheErrorAndDisposes() async throws {
        let probe = Probe()
        probe.put([1], every: 0.01)
        let started = ContinuousClock.now
        let error = await #expect(throws: ClientError.self) {
            try await firstValue("the answer", of: probe.signal, timeout: 0.2, where: { $0 == 42 })
        }
        let elapsed = ContinuousClock.now - started
        #expect(
            error == .unreachable("the answer did not happen within 0 s — check that the server is running"))
        // The timer fires on a Dispatch queue, but the waiting task resumes on the cooperative pool: with the live
        // tests beside it (two pool threads, a load of 6) that took 10.3 s. The bound is for a wait that never ends.
        #expect(elapsed >= .milliseconds(200) && elapsed < .seconds(30))
        #expect(probe.everSubscribed && probe.subscriptions == 0)
        let custom = await #expect(throws: ClientError.self) {
            try await firstResult(
                "x", of: probe.signal, timeout: 0.05, timedOut: .notFound("custom")
            ) { _ throws(ClientError) -> Int? in nil }
        }
        #expect(custom == .notFound("custom"))
        #expect(probe.subscriptions == 0)
    }

    @Test func anErrorFromTheTransformEndsTheWaitWithIt() async throws {
        let probe = Probe()
        probe.put([1, 2], every: 0.02)
        let error = await #expect(throws: ClientError.self) {
            // The wait ends on the error; the timeout only bounds a wait that never would (a load of 10 once took
            // the producer's two 20 ms sleeps past 10 s).
            try await firstResult("two", of: probe.signal, timeout: 60) { value throws(ClientError) -> Int? in
                if value == 2 { throw .refused("two is refused") }
                return nil
            }
        }
        #expect(error == .refused("two is refused"))
        #expect(probe.subscriptions == 0)
    }

    @Test func cancellingTheTaskEndsTheWaitAndDisposes() async throws {
        let probe = Probe()
        let waiting = Task { () async throws -> Int in
            try await firstValue("never", of: probe.signal, timeout: 30, where: { _ in true })
        }
        while !probe.everSubscribed { await Task.yield() }
        let started = ContinuousClock.now
        waiting.cancel()
        let result = await waiting.result
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(throws: ClientError.cancelled("never")) { try result.get() }
        #expect(probe.subscriptions == 0)
        // Cancelled before it began: it does not wait at all.
        let early = Task { () async throws -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await firstValue("never", of: probe.signal, timeout: 30, where: { _ in true })
        }
        await #expect(throws: ClientError.cancelled("never")) { try await early.value }
        #expect(probe.subscriptions == 0)
    }

    @Test func waitUntilChecksAgainOnlyWhenTheSignalFires() async throws {
        let probe = Probe()
        let state = LockedValue(0)
        let checks = LockedValue(0)
        // The state changes without a signal: a wait that polled would see it; this one times out.
        state.withLock { $0 = 1 }
        let stale = await #expect(throws: ClientError.self) {
            try await waitUntil("nothing", timeout: 0.3, wakingOn: probe.signal) { () throws(ClientError) -> Int? in
                checks.withLock { $0 += 1 }
                return checks.withLock { $0 } > 1 ? state.withLock { $0 } : nil
            }
        }
        #expect(stale == .unreachable("nothing did not happen within 0 s — check that the server is running"))
        #expect(checks.withLock { $0 } == 1)
        #expect(probe.subscriptions == 0)
        // Each emission makes one more check; the one after the change is taken.
        checks.withLock { $0 = 0 }
        state.withLock { $0 = 0 }
        Task.detached {
            try? await Task.sleep(for: .milliseconds(50))
            probe.pipe.putNext(0)
            try? await Task.sleep(for: .milliseconds(50))
            state.withLock { $0 = 5 }
            probe.pipe.putNext(0)
        }
        let value = try await waitUntil("five", timeout: 10, wakingOn: probe.signal) {
            () throws(ClientError) -> Int? in
            checks.withLock { $0 += 1 }
            let current = state.withLock { $0 }
            return current == 5 ? current : nil
        }
        #expect(value == 5)
        // Once at first and once per emission (two emissions close together may make one check).
        #expect((2...3).contains(checks.withLock { $0 }))
        #expect(probe.subscriptions == 0)
    }

    @Test func waitUntilEndsOnCancellationAndOnAThrownError() async throws {
        let probe = Probe()
        let waiting = Task { () async throws -> Int in
            try await waitUntil("never", timeout: 30, wakingOn: probe.signal) { () throws(ClientError) -> Int? in nil }
        }
        while !probe.everSubscribed { await Task.yield() }
        waiting.cancel()
        await #expect(throws: ClientError.cancelled("never")) { try await waiting.value }
        #expect(probe.subscriptions == 0)
        let error = await #expect(throws: ClientError.self) {
            try await waitUntil("refusal", timeout: 30, wakingOn: probe.signal) { () throws(ClientError) -> Int? in
                throw .refused("no")
            }
        }
        #expect(error == .refused("no"))
        #expect(probe.subscriptions == 0)
    }
}
