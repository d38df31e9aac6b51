/// Shared engine of every `combineLatest`: the latest value of each input, built into the output under the lock.
///
/// It emits once every input has a value (or an initial value), then on every update; it completes when every input
/// has completed and fails on the first error.
func combineLatestCore<V: Sendable, Out, E: Sendable>(
    queue: Queue?, _ signals: [Signal<V, E>], initialValues: [Int: V],
    build: @escaping @Sendable ([V?]) -> Out
) -> Signal<Out, E> {
    Signal { subscriber in
        if signals.isEmpty {
            subscriber.putNext(build([]))
            subscriber.putCompletion()
            return EmptyDisposable
        }
        var initial = [V?](repeating: nil, count: signals.count)
        for (index, value) in initialValues where index < signals.count { initial[index] = value }
        let state = LockedValue.make(
            CombineLatestState(values: initial, missing: initial.lazy.filter { $0 == nil }.count))
        let count = signals.count
        let disposables = DisposableSet()
        for (index, signal) in signals.enumerated() {
            let source = queue.map { signal |> deliverOn($0) } ?? signal
            disposables.add(
                source.forward(
                    to: subscriber,
                    next: { value in
                        let output = state.withLock { state -> Out? in
                            if state.values[index] == nil { state.missing -= 1 }
                            state.values[index] = value
                            return state.missing == 0 ? build(state.values) : nil
                        }
                        if let output { subscriber.putNext(output) }
                    },
                    error: { subscriber.putError($0) },
                    completed: {
                        let all = state.withLock { state -> Bool in
                            state.completed += 1
                            return state.completed == count
                        }
                        if all { subscriber.putCompletion() }
                    }))
        }
        return disposables
    }
}

/// The inputs' latest values, how many inputs still lack one, and how many have completed.
struct CombineLatestState<V> {
    var values: [V?]
    var missing: Int
    var completed = 0
}
