/// Calls `f` with each value before passing it on.
@inlinable
public func beforeNext<T, E, R>(_ f: @escaping @Sendable (T) -> R) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            signal.forward(
                to: subscriber,
                next: { next in
                    _ = f(next)
                    subscriber.putNext(next)
                }, error: { subscriber.putError($0) }, completed: { subscriber.putCompletion() })
        }
    }
}

/// Calls `f` with each value after passing it on.
@inlinable
public func afterNext<T, E, R>(_ f: @escaping @Sendable (T) -> R) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            signal.forward(
                to: subscriber,
                next: { next in
                    subscriber.putNext(next)
                    _ = f(next)
                }, error: { subscriber.putError($0) }, completed: { subscriber.putCompletion() })
        }
    }
}

/// Calls `f` each time the signal is started, before its generator runs.
public func beforeStarted<T, E>(_ f: @escaping @Sendable () -> Void) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            f()
            return signal.forwardAll(to: subscriber)
        }
    }
}

/// Calls `f` when the signal completes, before the completion is passed on.
public func beforeCompleted<T, E>(_ f: @escaping @Sendable () -> Void) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            signal.forward(
                to: subscriber, next: { subscriber.putNext($0) }, error: { subscriber.putError($0) },
                completed: {
                    f()
                    subscriber.putCompletion()
                })
        }
    }
}

/// Calls `f` when the signal completes, after the completion is passed on.
public func afterCompleted<T, E>(_ f: @escaping @Sendable () -> Void) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            signal.forward(
                to: subscriber, next: { subscriber.putNext($0) }, error: { subscriber.putError($0) },
                completed: {
                    subscriber.putCompletion()
                    f()
                })
        }
    }
}

/// Calls `f` once the subscription's disposable is disposed (explicitly, or after the terminal event).
public func afterDisposed<T, E>(_ f: @escaping @Sendable () -> Void) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            let disposable = signal.forwardAll(to: subscriber)
            return ActionDisposable {
                disposable.dispose()
                f()
            }
        }
    }
}

/// Makes a fresh state for each subscription and hands it to the side-effect callbacks.
public func withState<T, E, S: Sendable>(
    _ signal: Signal<T, E>, _ initialState: @escaping @Sendable () -> S,
    next: @escaping @Sendable (T, S) -> Void = { _, _ in }, error: @escaping @Sendable (E, S) -> Void = { _, _ in },
    completed: @escaping @Sendable (S) -> Void = { _ in }, disposed: @escaping @Sendable (S) -> Void = { _ in }
) -> Signal<T, E> {
    Signal { subscriber in
        let state = initialState()
        let disposable = signal.forward(
            to: subscriber,
            next: { value in
                next(value, state)
                subscriber.putNext(value)
            },
            error: { value in
                error(value, state)
                subscriber.putError(value)
            },
            completed: {
                completed(state)
                subscriber.putCompletion()
            })
        return ActionDisposable {
            disposable.dispose()
            disposed(state)
        }
    }
}
