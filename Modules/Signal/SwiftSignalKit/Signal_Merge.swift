/// Delivers the values of all `signals` as they arrive; completes when all complete; fails on the first error.
///
/// Telegram left `merge` commented out; the ObjC SSignalKit has `mergeSignals`, which this mirrors.
public func merge<T, E>(_ signals: [Signal<T, E>]) -> Signal<T, E> {
    Signal { subscriber in
        if signals.isEmpty {
            subscriber.putCompletion()
            return EmptyDisposable
        }
        let remaining = LockedValue.make(signals.count)
        let disposables = DisposableSet()
        for signal in signals {
            disposables.add(
                signal.forward(
                    to: subscriber, next: { subscriber.putNext($0) }, error: { subscriber.putError($0) },
                    completed: {
                        let done = remaining.withLock { count -> Bool in
                            count -= 1
                            return count == 0
                        }
                        if done { subscriber.putCompletion() }
                    }))
        }
        return disposables
    }
}

/// Merges two signals (see `merge(_:)`).
public func merge<T, E>(_ first: Signal<T, E>, _ second: Signal<T, E>) -> Signal<T, E> {
    merge([first, second])
}

/// Merges this signal with `other`, for use in a pipe: `a |> mergeWith(b)`.
public func mergeWith<T, E>(_ other: Signal<T, E>) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in merge([signal, other]) }
}
