import Dispatch
import Postbox
import SwiftSignalKit
import Synchronization

/// Subscribes to a view signal and records every snapshot it delivers, with the monotonic time it arrived.
final class ViewRecorder<T: Sendable>: Sendable {
    private let values = Mutex<[(value: T, time: UInt64)]>([])
    private let disposable = Mutex<Disposable?>(nil)
    private let arrivals = DispatchSemaphore(value: 0)

    init(_ signal: Signal<T, NoError>) {
        let subscription = signal.start(next: { [weak self] value in
            guard let self else { return }
            let time = DispatchTime.now().uptimeNanoseconds
            self.values.withLock { $0.append((value, time)) }
            self.arrivals.signal()
        })
        disposable.withLock { $0 = subscription }
    }

    /// Every snapshot so far.
    var all: [T] { values.withLock { $0.map(\.value) } }
    /// The newest snapshot.
    var last: T? { values.withLock { $0.last?.value } }
    /// When the newest snapshot arrived (`DispatchTime` nanoseconds).
    var lastTime: UInt64? { values.withLock { $0.last?.time } }
    var count: Int { values.withLock { $0.count } }

    /// Waits until at least `count` snapshots arrived or `seconds` passed (for deliveries caused by another
    /// process); returns whether they arrived.
    func wait(forCount count: Int, seconds: Double) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while self.count < count {
            if arrivals.wait(timeout: deadline) == .timedOut { return self.count >= count }
        }
        return true
    }

    func dispose() { disposable.withLock { $0?.dispose() } }
}

extension Postbox {
    /// Waits until work queued on the writer queue so far (such as opening views) has run.
    func drainQueue() throws { try transactionSync { _ in } }
}
