import Postbox
import SwiftSignalKit
import Synchronization

/// Subscribes to a view signal and records every snapshot it delivers.
final class ViewRecorder<T: Sendable>: Sendable {
    private let values = Mutex<[T]>([])
    private let disposable = Mutex<Disposable?>(nil)

    init(_ signal: Signal<T, NoError>) {
        let subscription = signal.start(next: { [weak self] value in self?.values.withLock { $0.append(value) } })
        disposable.withLock { $0 = subscription }
    }

    /// Every snapshot so far.
    var all: [T] { values.withLock { $0 } }
    /// The newest snapshot.
    var last: T? { values.withLock { $0.last } }
    var count: Int { values.withLock { $0.count } }

    func dispose() { disposable.withLock { $0?.dispose() } }
}

extension Postbox {
    /// Waits until work queued on the writer queue so far (such as opening views) has run.
    func drainQueue() throws { try transactionSync { _ in } }
}
