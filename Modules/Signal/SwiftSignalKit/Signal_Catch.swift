/// On error, continues with the signal `f` makes from the error.
public func `catch`<T, E, R>(_ f: @escaping @Sendable (E) -> Signal<T, R>) -> (Signal<T, E>) -> Signal<T, R> {
    { signal in
        Signal<T, R> { subscriber in
            let disposable = DisposableSet()
            disposable.add(
                signal.forward(
                    to: subscriber, next: { subscriber.putNext($0) },
                    error: { error in disposable.add(f(error).forwardAll(to: subscriber)) },
                    completed: { subscriber.putCompletion() }))
            return disposable
        }
    }
}

/// Subscribes again each time the signal completes; never completes itself (errors pass through).
public func restart<T, E>(_ signal: Signal<T, E>) -> Signal<T, E> {
    Signal { subscriber in
        let restarter = Restarter(downstream: subscriber) { restarter in
            signal.forward(
                to: subscriber, next: { subscriber.putNext($0) }, error: { subscriber.putError($0) },
                completed: { restarter.request() })
        }
        restarter.request()
        return restarter
    }
}

/// Telegram's `recurse`: restarts the signal on completion like `restart` (Telegram ignores `latestValue`; so do we).
public func recurse<T, E>(_ latestValue: T?) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in restart(signal) }
}

/// Retries forever on error, waiting `delayIncrement` more seconds each time (at most `maxDelay`) on `queue`.
public func retry<T, E>(
    _ delayIncrement: Double, maxDelay: Double, onQueue queue: Queue
) -> (Signal<T, E>) -> Signal<
    T, NoError
> {
    { signal in
        Signal<T, NoError> { subscriber in
            let delay = Atomic(value: 0.0)
            let pending = MetaDisposable()
            let restarter = Restarter(downstream: subscriber) { restarter in
                signal.forward(
                    to: subscriber, next: { subscriber.putNext($0) },
                    error: { _ in
                        let wait = delay.modify { min(maxDelay, $0 + delayIncrement) }
                        pending.set(queue.schedule(after: wait) { restarter.request() })
                    },
                    completed: {
                        restarter.stop()
                        subscriber.putCompletion()
                    })
            }
            restarter.request()
            return ActionDisposable {
                restarter.dispose()
                pending.dispose()
            }
        }
    }
}

/// Retries on errors `retryOnError` accepts, with a growing delay, at most `maxRetries` times; other errors pass.
public func retry<T, E>(
    retryOnError: @escaping @Sendable (E) -> Bool, delayIncrement: Double, maxDelay: Double, maxRetries: Int,
    onQueue queue: Queue
) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            let attempts = Atomic(value: (delay: 0.0, count: 0))
            let pending = MetaDisposable()
            let restarter = Restarter(downstream: subscriber) { restarter in
                signal.forward(
                    to: subscriber, next: { subscriber.putNext($0) },
                    error: { error in
                        guard retryOnError(error) else {
                            subscriber.putError(error)
                            return
                        }
                        let (wait, count) = attempts.modify { (min(maxDelay, $0.delay + delayIncrement), $0.count + 1) }
                        if count > maxRetries {
                            subscriber.putError(error)
                        } else {
                            pending.set(queue.schedule(after: wait) { restarter.request() })
                        }
                    },
                    completed: {
                        restarter.stop()
                        subscriber.putCompletion()
                    })
            }
            restarter.request()
            return ActionDisposable {
                restarter.dispose()
                pending.dispose()
            }
        }
    }
}

/// Subscribes again at once on every error; completes when the signal completes.
public func restartIfError<T, E>(_ signal: Signal<T, E>) -> Signal<T, NoError> {
    Signal { subscriber in
        let restarter = Restarter(downstream: subscriber) { restarter in
            signal.forward(
                to: subscriber, next: { subscriber.putNext($0) }, error: { _ in restarter.request() },
                completed: {
                    restarter.stop()
                    subscriber.putCompletion()
                })
        }
        restarter.request()
        return restarter
    }
}

/// What `restartOrMapError` does with an error: subscribe again, or fail with a mapped error.
public enum RestartOrMapErrorCondition<E> {
    case restart
    case error(E)
}

extension RestartOrMapErrorCondition: Sendable where E: Sendable {}

/// On each error, asks `condition`: restart the signal, or fail with the error it returns.
public func restartOrMapError<T, E, R>(
    condition: @escaping @Sendable (E) -> RestartOrMapErrorCondition<R>
) -> (
    Signal<T, E>
) -> Signal<T, R> {
    { signal in
        Signal<T, R> { subscriber in
            let restarter = Restarter(downstream: subscriber) { restarter in
                signal.forward(
                    to: subscriber, next: { subscriber.putNext($0) },
                    error: { error in
                        switch condition(error) {
                        case .restart: restarter.request()
                        case .error(let mapped): subscriber.putError(mapped)
                        }
                    },
                    completed: {
                        restarter.stop()
                        subscriber.putCompletion()
                    })
            }
            restarter.request()
            return restarter
        }
    }
}
