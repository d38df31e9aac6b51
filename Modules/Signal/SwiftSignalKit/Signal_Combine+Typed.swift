/// The latest values of two inputs under a lock (the typed, specializable path of two-signal `combineLatest`).
@usableFromInline
final class CombineLatest2State<T1, T2>: @unchecked Sendable {
    // @unchecked Sendable: every field is read and written inside `lock.locked`.
    @usableFromInline let lock = Lock()
    @usableFromInline var v1: T1?
    @usableFromInline var v2: T2?
    @usableFromInline var completed = 0

    @usableFromInline
    init(_ v1: T1?, _ v2: T2?) {
        self.v1 = v1
        self.v2 = v2
    }
}

/// The latest values of three inputs under a lock (the typed path of three-signal `combineLatest`).
@usableFromInline
final class CombineLatest3State<T1, T2, T3>: @unchecked Sendable {
    // @unchecked Sendable: every field is read and written inside `lock.locked`.
    @usableFromInline let lock = Lock()
    @usableFromInline var v1: T1?
    @usableFromInline var v2: T2?
    @usableFromInline var v3: T3?
    @usableFromInline var completed = 0

    @usableFromInline
    init() {}
}

@inlinable
func deliverIfNeeded<T: Sendable, E: Sendable>(_ signal: Signal<T, E>, _ queue: Queue?) -> Signal<T, E> {
    if let queue { return signal |> deliverOn(queue) }
    return signal
}

/// Combines two signals into pairs (see the variadic `combineLatest`); a typed overload that avoids boxing.
@inlinable
public func combineLatest<T1: Sendable, T2: Sendable, E: Sendable>(
    queue: Queue? = nil, _ s1: Signal<T1, E>, _ s2: Signal<T2, E>
) -> Signal<(T1, T2), E> {
    combineLatest2(queue: queue, s1, nil, s2, nil)
}

/// Combines two signals, starting from initial values, so it emits from the first update of either.
@inlinable
public func combineLatest<T1: Sendable, T2: Sendable, E: Sendable>(
    queue: Queue? = nil, _ s1: Signal<T1, E>, _ v1: T1, _ s2: Signal<T2, E>, _ v2: T2
) -> Signal<(T1, T2), E> {
    combineLatest2(queue: queue, s1, v1, s2, v2)
}

@inlinable
func combineLatest2<T1: Sendable, T2: Sendable, E: Sendable>(
    queue: Queue?, _ s1: Signal<T1, E>, _ v1: T1?, _ s2: Signal<T2, E>, _ v2: T2?
) -> Signal<(T1, T2), E> {
    Signal { subscriber in
        let state = CombineLatest2State<T1, T2>(v1, v2)
        let disposables = DisposableSet()
        let error: @Sendable (E) -> Void = { subscriber.putError($0) }
        let completed: @Sendable () -> Void = {
            let all = state.lock.locked { () -> Bool in
                state.completed += 1
                return state.completed == 2
            }
            if all { subscriber.putCompletion() }
        }
        disposables.add(
            deliverIfNeeded(s1, queue).forward(
                to: subscriber,
                next: { value in
                    let output = state.lock.locked { () -> (T1, T2)? in
                        state.v1 = value
                        guard let other = state.v2 else { return nil }
                        return (value, other)
                    }
                    if let output { subscriber.putNext(output) }
                }, error: error, completed: completed))
        disposables.add(
            deliverIfNeeded(s2, queue).forward(
                to: subscriber,
                next: { value in
                    let output = state.lock.locked { () -> (T1, T2)? in
                        state.v2 = value
                        guard let other = state.v1 else { return nil }
                        return (other, value)
                    }
                    if let output { subscriber.putNext(output) }
                }, error: error, completed: completed))
        return disposables
    }
}

/// Combines three signals into triples (see the variadic `combineLatest`); a typed overload that avoids boxing.
@inlinable
public func combineLatest<T1: Sendable, T2: Sendable, T3: Sendable, E: Sendable>(
    queue: Queue? = nil, _ s1: Signal<T1, E>, _ s2: Signal<T2, E>, _ s3: Signal<T3, E>
) -> Signal<(T1, T2, T3), E> {
    Signal { subscriber in
        let state = CombineLatest3State<T1, T2, T3>()
        let disposables = DisposableSet()
        let error: @Sendable (E) -> Void = { subscriber.putError($0) }
        let completed: @Sendable () -> Void = {
            let all = state.lock.locked { () -> Bool in
                state.completed += 1
                return state.completed == 3
            }
            if all { subscriber.putCompletion() }
        }
        let emit: @Sendable ((T1, T2, T3)?) -> Void = { output in
            if let output { subscriber.putNext(output) }
        }
        disposables.add(
            deliverIfNeeded(s1, queue).forward(
                to: subscriber,
                next: { value in
                    emit(
                        state.lock.locked { () -> (T1, T2, T3)? in
                            state.v1 = value
                            guard let b = state.v2, let c = state.v3 else { return nil }
                            return (value, b, c)
                        })
                }, error: error, completed: completed))
        disposables.add(
            deliverIfNeeded(s2, queue).forward(
                to: subscriber,
                next: { value in
                    emit(
                        state.lock.locked { () -> (T1, T2, T3)? in
                            state.v2 = value
                            guard let a = state.v1, let c = state.v3 else { return nil }
                            return (a, value, c)
                        })
                }, error: error, completed: completed))
        disposables.add(
            deliverIfNeeded(s3, queue).forward(
                to: subscriber,
                next: { value in
                    emit(
                        state.lock.locked { () -> (T1, T2, T3)? in
                            state.v3 = value
                            guard let a = state.v1, let b = state.v2 else { return nil }
                            return (a, b, value)
                        })
                }, error: error, completed: completed))
        return disposables
    }
}
