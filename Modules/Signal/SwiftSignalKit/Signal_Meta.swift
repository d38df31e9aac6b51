import Glibc

private func queueState<T, E>(_ signal: Signal<Signal<T, E>, E>, queueMode: Bool, throttleMode: Bool) -> Signal<T, E> {
    Signal { subscriber in
        let state = SignalQueueState(subscriber: subscriber, queueMode: queueMode, throttleMode: throttleMode)
        state.outer.set(
            signal.start(
                next: { state.enqueue($0) }, error: { subscriber.putError($0) },
                completed: { state.outerCompleted() }))
        return state
    }
}

/// Follows the latest inner signal: each new one replaces (disposes) the previous.
public func switchToLatest<T, E>(_ signal: Signal<Signal<T, E>, E>) -> Signal<T, E> {
    queueState(signal, queueMode: false, throttleMode: false)
}

/// Runs the inner signals one after another, in order (concatenation).
public func queue<T, E>(_ signal: Signal<Signal<T, E>, E>) -> Signal<T, E> {
    queueState(signal, queueMode: true, throttleMode: false)
}

/// Runs inner signals one at a time; while one runs, only the newest arriving signal waits (the rest are dropped).
public func throttled<T, E>(_ signal: Signal<Signal<T, E>, E>) -> Signal<T, E> {
    queueState(signal, queueMode: true, throttleMode: true)
}

/// Maps each value to a signal and follows the latest one (`map` then `switchToLatest`).
public func mapToSignal<T, R, E>(_ f: @escaping @Sendable (T) -> Signal<R, E>) -> (Signal<T, E>) -> Signal<R, E> {
    { signal in signal |> map(f) |> switchToLatest }
}

/// Drops every value, keeping only the terminal event.
public func ignoreValues<T, E>(_ signal: Signal<T, E>) -> Signal<Never, E> {
    Signal { subscriber in
        signal.forward(
            to: subscriber, next: { _ in }, error: { subscriber.putError($0) },
            completed: { subscriber.putCompletion() })
    }
}

/// `mapToSignal` from a signal that cannot fail to inner signals that can.
public func mapToSignalPromotingError<T, R, E>(
    _ f: @escaping @Sendable (T) -> Signal<R, E>
) -> (Signal<T, NoError>)
    -> Signal<R, E>
{
    { signal in signal |> castError(E.self) |> map(f) |> switchToLatest }
}

/// Maps each value to a signal and runs them one after another (`map` then `queue`).
public func mapToQueue<T, R, E>(_ f: @escaping @Sendable (T) -> Signal<R, E>) -> (Signal<T, E>) -> Signal<R, E> {
    { signal in signal |> map(f) |> queue }
}

/// Maps each value to a signal and runs them one at a time, keeping only the newest waiting one.
public func mapToThrottled<T, R, E>(_ f: @escaping @Sendable (T) -> Signal<R, E>) -> (Signal<T, E>) -> Signal<R, E> {
    { signal in signal |> map(f) |> throttled }
}

/// Continues with `nextSignal` after the signal completes.
public func then<T, E>(_ nextSignal: Signal<T, E>) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            let disposable = DisposableSet()
            disposable.add(
                signal.forward(
                    to: subscriber, next: { subscriber.putNext($0) }, error: { subscriber.putError($0) },
                    completed: { disposable.add(nextSignal.forwardAll(to: subscriber)) }))
            return disposable
        }
    }
}

/// A signal made by `generator` at each subscription.
public func deferred<T, E>(_ generator: @escaping @Sendable () -> Signal<T, E>) -> Signal<T, E> {
    Signal { subscriber in
        generator().forwardAll(to: subscriber)
    }
}

/// Prints how long the first event took after subscribing (a debugging aid, as in Telegram).
public func debug_measureTimeToFirstEvent<T, E>(label: String) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            let start = monotonicSeconds()
            let reported = Atomic(value: false)
            let report: @Sendable () -> Void = {
                if !reported.swap(true) {
                    print("\(label): first event after \(Int((monotonicSeconds() - start) * 1000)) ms")
                }
            }
            return signal.forward(
                to: subscriber,
                next: {
                    report()
                    subscriber.putNext($0)
                },
                error: {
                    report()
                    subscriber.putError($0)
                },
                completed: {
                    report()
                    subscriber.putCompletion()
                })
        }
    }
}

func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
