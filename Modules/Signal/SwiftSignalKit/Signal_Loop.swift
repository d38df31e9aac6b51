/// The input of each round of `feedbackLoop`: nothing yet, or the value accumulated so far.
public enum SignalFeedbackLoopState<T> {
    case initial
    case loop(T)
}

extension SignalFeedbackLoopState: Sendable where T: Sendable {}

/// Runs rounds until `once` returns nil: each round's signal is made from the state so far; its values are folded
/// into the state with `reduce` (the first value becomes the state) and each new state is delivered.
///
/// Used for paging: "fetch the next page after the last one, until there is none".
public func feedbackLoop<R: Sendable, E>(
    once: @escaping @Sendable (SignalFeedbackLoopState<R>) -> Signal<R, E>?, reduce: @escaping @Sendable (R, R) -> R
) -> Signal<R, E> {
    Signal { subscriber in
        let state = Atomic<R?>(value: nil)
        let restarter = Restarter(downstream: subscriber) { restarter in
            let input: SignalFeedbackLoopState<R> = state.with { $0 }.map { .loop($0) } ?? .initial
            guard let signal = once(input) else {
                restarter.stop()
                subscriber.putCompletion()
                return EmptyDisposable
            }
            return signal.forward(
                to: subscriber,
                next: { next in
                    let updated = state.modify { current in current.map { reduce($0, next) } ?? next }
                    if let updated { subscriber.putNext(updated) }
                }, error: { subscriber.putError($0) }, completed: { restarter.request() })
        }
        restarter.request()
        return restarter
    }
}
