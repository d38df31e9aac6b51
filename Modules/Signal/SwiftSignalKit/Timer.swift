/// A one-shot or repeating timer that fires on a `Queue` (Telegram's `Timer`; not Foundation's).
///
/// It runs on the queue's clock, so on a SignalTesting virtual queue it fires when virtual time passes.
/// In files that also import Foundation, write `SwiftSignalKit.Timer`.
public final class Timer: Sendable {
    private struct State {
        var started = false
        var invalidated = false
        var pending: Disposable?
    }

    private let timeout: Double
    private let `repeat`: Bool
    private let completion: @Sendable (Timer) -> Void
    private let queue: Queue
    private let state = LockedValue.make(State())

    /// A timer that calls `completion` on `queue` after `timeout` seconds (every `timeout` if `repeat`).
    public init(timeout: Double, repeat: Bool, completion: @escaping @Sendable () -> Void, queue: Queue) {
        self.timeout = timeout
        self.repeat = `repeat`
        self.completion = { _ in completion() }
        self.queue = queue
    }

    /// A timer whose completion receives the timer (to invalidate itself).
    public init(timeout: Double, repeat: Bool, completion: @escaping @Sendable (Timer) -> Void, queue: Queue) {
        self.timeout = timeout
        self.repeat = `repeat`
        self.completion = completion
        self.queue = queue
    }

    deinit {
        state.withLock { $0.pending }?.dispose()
    }

    /// Starts the timer; a second start does nothing.
    public func start() {
        let go = state.withLock { state -> Bool in
            if state.started || state.invalidated { return false }
            state.started = true
            return true
        }
        if go { arm(at: queue.currentTime + timeout) }
    }

    /// Stops the timer; it will not fire again.
    public func invalidate() {
        let pending = state.withLock { state -> Disposable? in
            state.invalidated = true
            let pending = state.pending
            state.pending = nil
            return pending
        }
        pending?.dispose()
    }

    private func arm(at deadline: Double) {
        let delay = max(0, deadline - queue.currentTime)
        let disposable = queue.schedule(after: delay) { [weak self] in
            self?.fire(deadline: deadline)
        }
        let rejected = state.withLock { state -> Bool in
            if state.invalidated { return true }
            state.pending = disposable
            return false
        }
        if rejected { disposable.dispose() }
    }

    private func fire(deadline: Double) {
        let live = state.withLock { !$0.invalidated }
        guard live else { return }
        if `repeat` {
            arm(at: deadline + timeout)
        }
        completion(self)
    }
}
