/// Folds every value into an accumulator with `f`; delivers the result and completes when the source completes.
public func reduceLeft<T: Sendable, E>(
    value: T, f: @escaping @Sendable (T, T) -> T
) -> (Signal<T, E>) -> Signal<
    T, E
> {
    { signal in
        Signal<T, E> { subscriber in
            let current = LockedValue.make(value)
            return signal.forward(
                to: subscriber, next: { next in current.withLock { $0 = f($0, next) } },
                error: { subscriber.putError($0) },
                completed: {
                    subscriber.putNext(current.withLock { $0 })
                    subscriber.putCompletion()
                })
        }
    }
}

/// Like `reduceLeft(value:f:)`, but `f` may also emit intermediate values through its third argument.
public func reduceLeft<T: Sendable, E>(
    value: T, f: @escaping @Sendable (T, T, (T) -> Void) -> T
) -> (Signal<T, E>)
    -> Signal<T, E>
{
    { signal in
        Signal<T, E> { subscriber in
            let current = Atomic(value: value)
            let emit: @Sendable (T) -> Void = { subscriber.putNext($0) }
            return signal.forward(
                to: subscriber, next: { next in current.modify { f($0, next, emit) } },
                error: { subscriber.putError($0) },
                completed: {
                    subscriber.putNext(current.with { $0 })
                    subscriber.putCompletion()
                })
        }
    }
}

/// Whether a step of the signal-generating `reduceLeft` emits a value.
public enum Passthrough<T> {
    case None
    case Some(T)
}

extension Passthrough: Sendable where T: Sendable {}

/// Folds values through signals: for each value, `generator(accumulator, value)` runs to completion (one at a time,
/// in order); its values update the accumulator and may pass a value on. The final accumulator is delivered when the
/// source and every pending step have completed.
public func reduceLeft<T: Sendable, E: Sendable>(
    _ value: T, generator: @escaping @Sendable (T, T) -> Signal<(T, Passthrough<T>), E>
) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            let accumulator = Atomic(value: value)
            let steps: Signal<Signal<T, E>, E> =
                signal
                |> map { next in
                    deferred {
                        generator(accumulator.with { $0 }, next)
                            |> mapToSignalPassthrough(accumulator: accumulator)
                    }
                }
            let folded =
                (steps |> queue)
                |> then(
                    Signal<T, E> { final in
                        final.putNext(accumulator.with { $0 })
                        final.putCompletion()
                        return EmptyDisposable
                    })
            return folded.forwardAll(to: subscriber)
        }
    }
}

private func mapToSignalPassthrough<T: Sendable, E>(
    accumulator: Atomic<T>
) -> (Signal<(T, Passthrough<T>), E>)
    -> Signal<T, E>
{
    { signal in
        Signal<T, E> { subscriber in
            signal.forward(
                to: subscriber,
                next: { (value, passthrough) in
                    accumulator.swap(value)
                    if case .Some(let emitted) = passthrough { subscriber.putNext(emitted) }
                }, error: { subscriber.putError($0) }, completed: { subscriber.putCompletion() })
        }
    }
}
