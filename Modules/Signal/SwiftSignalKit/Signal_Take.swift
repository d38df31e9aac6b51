/// Passes the first `count` values, then completes (and disposes the source).
public func take<T, E>(_ count: Int) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            if count <= 0 {
                subscriber.putCompletion()
                return EmptyDisposable
            }
            let counter = Atomic<Int>(value: 0)
            return signal.forward(
                to: subscriber,
                next: { next in
                    let updated = counter.modify { $0 + 1 }
                    if updated <= count { subscriber.putNext(next) }
                    if updated == count { subscriber.putCompletion() }
                }, error: { subscriber.putError($0) }, completed: { subscriber.putCompletion() })
        }
    }
}

/// Keeps the last `count` values and delivers them, in order, when the source completes.
public func takeLast<T: Sendable, E>(_ count: Int) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            let buffer = LockedValue<[T]>.make([])
            return signal.forward(
                to: subscriber,
                next: { next in
                    guard count > 0 else { return }
                    buffer.withLock { values in
                        if values.count == count { values.removeFirst() }
                        values.append(next)
                    }
                }, error: { subscriber.putError($0) },
                completed: {
                    for value in buffer.withLock({ $0 }) { subscriber.putNext(value) }
                    subscriber.putCompletion()
                })
        }
    }
}

/// What `take(until:)` does with a value: pass it on, and/or complete.
public struct SignalTakeAction: Sendable {
    public let passthrough: Bool
    public let complete: Bool

    /// An action; `complete` ends the signal after the value (passed on or not).
    public init(passthrough: Bool, complete: Bool) {
        self.passthrough = passthrough
        self.complete = complete
    }
}

/// Asks `until` about each value: pass it on or not, complete or not.
public func take<T, E>(until: @escaping @Sendable (T) -> SignalTakeAction) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            signal.forward(
                to: subscriber,
                next: { next in
                    let action = until(next)
                    if action.passthrough { subscriber.putNext(next) }
                    if action.complete { subscriber.putCompletion() }
                }, error: { subscriber.putError($0) }, completed: { subscriber.putCompletion() })
        }
    }
}

/// Delivers the last value (nil if there was none) when the source completes.
public func last<T: Sendable, E>(signal: Signal<T, E>) -> Signal<T?, E> {
    Signal { subscriber in
        let value = LockedValue<T?>.make(nil)
        return signal.forward(
            to: subscriber, next: { next in value.withLock { $0 = next } }, error: { subscriber.putError($0) },
            completed: {
                subscriber.putNext(value.withLock { $0 })
                subscriber.putCompletion()
            })
    }
}
