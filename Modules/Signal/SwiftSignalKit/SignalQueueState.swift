/// The state behind `switchToLatest`, `queue` and `throttled`: which inner signal runs and which wait.
///
/// Modes: switch (a new inner signal replaces the running one), queue (inner signals run one after another), and
/// throttle (queue, but only the newest waiting signal is kept). The outer completion is delivered once the outer
/// signal has completed and no inner signal runs or waits. Synchronously completing inner signals are started in a
/// loop, not recursively.
final class SignalQueueState<T, E>: Disposable {
    private struct State {
        var executing = false
        var outerCompleted = false
        var queued: [Signal<T, E>] = []
        var generation = 0
    }

    private let state = LockedValue.make(State())
    private let current = MetaDisposable()
    let outer = MetaDisposable()
    private let subscriber: Subscriber<T, E>
    private let queueMode: Bool
    private let throttleMode: Bool

    init(subscriber: Subscriber<T, E>, queueMode: Bool, throttleMode: Bool) {
        self.subscriber = subscriber
        self.queueMode = queueMode
        self.throttleMode = throttleMode
    }

    func enqueue(_ signal: Signal<T, E>) {
        let generation = state.withLock { state -> Int? in
            if queueMode && state.executing {
                if throttleMode { state.queued.removeAll() }
                state.queued.append(signal)
                return nil
            }
            state.executing = true
            state.generation += 1
            return state.generation
        }
        if let generation { run(signal, generation) }
    }

    private func run(_ first: Signal<T, E>, _ firstGeneration: Int) {
        var signal = first
        var generation = firstGeneration
        while true {
            let returned = Atomic(value: false)
            let myGeneration = generation
            let subscriber = self.subscriber
            let disposable = signal.forward(
                to: subscriber, next: { subscriber.putNext($0) }, error: { subscriber.putError($0) },
                completed: { [self] in
                    if returned.swap(true) {
                        if let (next, nextGeneration) = self.advance(after: myGeneration) {
                            self.run(next, nextGeneration)
                        }
                    }
                })
            current.set(disposable)
            if !returned.swap(true) { return }
            guard let (next, nextGeneration) = advance(after: myGeneration) else { return }
            signal = next
            generation = nextGeneration
        }
    }

    /// After the inner signal of `generation` completed: the next one to run, or nil (completing if all is done).
    private func advance(after generation: Int) -> (Signal<T, E>, Int)? {
        let (next, complete) = state.withLock { state -> ((Signal<T, E>, Int)?, Bool) in
            guard state.generation == generation else { return (nil, false) }
            state.executing = false
            if queueMode, !state.queued.isEmpty {
                state.executing = true
                state.generation += 1
                return ((state.queued.removeFirst(), state.generation), false)
            }
            return (nil, state.outerCompleted)
        }
        if complete { subscriber.putCompletion() }
        return next
    }

    func outerCompleted() {
        let complete = state.withLock { state -> Bool in
            state.outerCompleted = true
            return !state.executing
        }
        if complete { subscriber.putCompletion() }
    }

    func dispose() {
        current.dispose()
        outer.dispose()
    }
}
