import Dispatch
import SwiftSignalKit

/// `condition`'s first value, checked at once and again after each emission of `changes` — the event that can make
/// it true, such as a Postbox view of what it reads — until it gives one or throws. It is checked in the waiting
/// task, never on the signal's queue (emissions that come while it runs make one more check). After `timeout`
/// seconds the wait ends with `timedOut` (by default `.unreachable("what did not happen within N s …")`), and when
/// the waiting task is cancelled, with `.unreachable("waiting for what was cancelled")`; the subscription is
/// disposed on every way out. No thread is held while it waits.
func waitUntil<C, T>(
    _ what: String, timeout: Double, wakingOn changes: Signal<C, NoError>, timedOut: ClientError? = nil,
    _ condition: () throws(ClientError) -> T?
) async throws(ClientError) -> T {
    let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    // Subscribed before the first check, so a change between the check and the wait is not missed.
    let subscription = changes.start(next: { _ in wake.yield() })
    let timer = DispatchWorkItem { wake.finish() }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
    defer {
        timer.cancel()
        subscription.dispose()
        wake.finish()
    }
    var iterator = wakes.makeAsyncIterator()
    repeat {
        if let value = try condition() { return value }
    } while await iterator.next() != nil
    if Task.isCancelled { throw .cancelled(what) }
    throw timedOut ?? .timedOut(what, after: timeout)
}
