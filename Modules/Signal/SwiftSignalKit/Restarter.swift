/// Starts a signal again and again without growing the stack, until stopped (the engine of `restart`, `retry`, …).
///
/// `request()` from inside a running start (a signal that completes synchronously) is turned into another turn of
/// the loop instead of a recursive call; Telegram's `recursiveFunction` recursed.
final class Restarter: Disposable {
    private struct State {
        var stopped = false
        var running = false
        var again = false
    }

    private let state = LockedValue.make(State())
    private let current = MetaDisposable()
    private let start: @Sendable (Restarter) -> Disposable
    private let downstream: any SubscriberControl

    /// A restarter feeding `downstream`; it stops by itself once `downstream` has terminated (e.g. `take` after
    /// `restart` completed it while the generator was still running, before any disposable could be assigned).
    init<T, E>(downstream: Subscriber<T, E>, start: @escaping @Sendable (Restarter) -> Disposable) {
        self.downstream = downstream
        self.start = start
    }

    /// Starts the signal (again).
    func request() {
        let go = state.withLock { state -> Bool in
            if state.stopped { return false }
            if state.running {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        guard go else { return }
        while true {
            if downstream.isTerminated {
                dispose()
                break
            }
            current.set(start(self))
            let more = state.withLock { state -> Bool in
                if state.again && !state.stopped {
                    state.again = false
                    return true
                }
                state.running = false
                state.again = false
                return false
            }
            if !more { break }
        }
    }

    /// Stops for good: no more starts.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    func dispose() {
        stop()
        current.dispose()
    }
}
