import Dispatch
import Postbox
import SignalTesting
import SwiftSignalKit

/// A live view's snapshots as SignalTesting records them, stamped with the monotonic clock in nanoseconds.
typealias ViewRecorder<T: Sendable> = EventRecorder<T, NoError>

extension EventRecorder where E == NoError {
    /// Subscribes to a view signal, stamping each snapshot with `DispatchTime` nanoseconds.
    convenience init(_ signal: Signal<T, NoError>) {
        self.init(signal, clock: { Double(DispatchTime.now().uptimeNanoseconds) })
    }

    /// Every snapshot so far.
    var all: [T] { values }
    /// The newest snapshot.
    var last: T? { values.last }
    /// When the newest snapshot arrived (`DispatchTime` nanoseconds).
    var lastTime: UInt64? { timedEvents.last.map { UInt64($0.time) } }
    var count: Int { values.count }

    /// Waits until at least `count` snapshots arrived or `seconds` passed (views never complete, so events are
    /// snapshots).
    func wait(forCount count: Int, seconds: Double) -> Bool { waitForEvents(count, seconds: seconds) }
}

extension Postbox {
    /// Waits until work queued on the writer queue so far (such as opening views) has run.
    func drainQueue() throws { try transactionSync { _ in } }
}
