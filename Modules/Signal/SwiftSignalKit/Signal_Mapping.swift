/// Transforms every value with `f`.
///
/// Fused: applied to a signal built by `map`/`filter`, it adds a step to that chain instead of another subscriber
/// (`SignalFusion`); each subscription still runs the source again and calls `f` once per value, in order.
@inlinable
public func map<T, E, R>(_ f: @escaping @Sendable (T) -> R) -> (Signal<T, E>) -> Signal<R, E> {
    { signal in
        if R.self == T.self {
            // Same type at run time (always decided at compile time in specialized code): one more step of the run.
            let step = unsafeBitCast(f, to: (@Sendable (T) -> T).self)
            return unsafeDowncast(signal.fusedMapSameType(step), to: Signal<R, E>.self)
        }
        return signal.fusedMap(f)
    }
}

/// Passes only the values for which `f` returns true.
///
/// Fused like `map`: a step of the chain it is applied to.
@inlinable
public func filter<T, E>(_ f: @escaping @Sendable (T) -> Bool) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in signal.fusedFilter(f) }
}

/// Maps the non-nil values of an optional signal with `f`, passing nil through (Telegram's `flatMap`).
@inlinable
public func flatMap<T, E, R>(_ f: @escaping @Sendable (T) -> R) -> (Signal<T?, E>) -> Signal<R?, E> {
    { signal in
        Signal<R?, E> { subscriber in
            signal.forward(
                to: subscriber, next: { subscriber.putNext($0.map(f)) }, error: { subscriber.putError($0) },
                completed: { subscriber.putCompletion() })
        }
    }
}

/// Transforms the error with `f`.
@inlinable
public func mapError<T, E, R>(_ f: @escaping @Sendable (E) -> R) -> (Signal<T, E>) -> Signal<T, R> {
    { signal in
        Signal<T, R> { subscriber in
            signal.forward(
                to: subscriber, next: { subscriber.putNext($0) }, error: { subscriber.putError(f($0)) },
                completed: { subscriber.putCompletion() })
        }
    }
}

/// Retypes a signal that cannot fail as one that may fail with `E`.
@inlinable
public func castError<T, E>(_ type: E.Type) -> (Signal<T, NoError>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            signal.forward(
                to: subscriber, next: { subscriber.putNext($0) }, error: { _ in },
                completed: { subscriber.putCompletion() })
        }
    }
}

/// Drops values equal to the previous one.
public func distinctUntilChanged<T: Equatable & Sendable, E>(_ signal: Signal<T, E>) -> Signal<T, E> {
    signal |> distinctUntilChanged(isEqual: ==)
}

/// Drops values that `isEqual` says equal the previous one.
public func distinctUntilChanged<T: Sendable, E>(
    isEqual: @escaping @Sendable (T, T) -> Bool
) -> (Signal<T, E>)
    -> Signal<T, E>
{
    { signal in
        Signal<T, E> { subscriber in
            let last = LockedValue<T?>.make(nil)
            return signal.forward(
                to: subscriber,
                next: { next in
                    let pass = last.withLock { previous -> Bool in
                        if let current = previous, isEqual(current, next) { return false }
                        previous = next
                        return true
                    }
                    if pass { subscriber.putNext(next) }
                }, error: { subscriber.putError($0) }, completed: { subscriber.putCompletion() })
        }
    }
}
