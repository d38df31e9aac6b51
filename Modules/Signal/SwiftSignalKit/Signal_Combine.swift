/// Combines the latest values of any number of signals into a tuple (Telegram spells out overloads for 2…26; a
/// parameter pack covers every arity).
///
/// Emits once every signal has delivered a value, then on every update; completes when all complete; fails on the
/// first error. With `queue`, the inputs are delivered on that queue before being combined.
public func combineLatest<each S: Sendable, E: Sendable>(
    queue: Queue? = nil, _ signals: repeat Signal<each S, E>
) -> Signal<(repeat each S), E> {
    var erased: [Signal<any Sendable, E>] = []
    for signal in repeat each signals {
        erased.append(signal |> map { $0 as any Sendable })
    }
    return combineLatestCore(queue: queue, erased, initialValues: [:]) { values in
        var index = 0
        func next<X>(_ type: X.Type) -> X {
            defer { index += 1 }
            return values[index]! as! X
        }
        return (repeat next((each S).self))
    }
}

/// Combines two signals, starting from initial values, so it emits from the first update of either.
public func combineLatest<T1: Sendable, T2: Sendable, E: Sendable>(
    queue: Queue? = nil, _ s1: Signal<T1, E>, _ v1: T1, _ s2: Signal<T2, E>, _ v2: T2
) -> Signal<(T1, T2), E> {
    let erased: [Signal<any Sendable, E>] = [s1 |> map { $0 as any Sendable }, s2 |> map { $0 as any Sendable }]
    return combineLatestCore(queue: queue, erased, initialValues: [0: v1, 1: v2]) { values in
        (values[0]! as! T1, values[1]! as! T2)
    }
}

/// Combines the latest values of an array of signals into an array (an empty array emits `[]` and completes).
public func combineLatest<T: Sendable, E: Sendable>(queue: Queue? = nil, _ signals: [Signal<T, E>]) -> Signal<[T], E> {
    combineLatestCore(queue: queue, signals, initialValues: [:]) { values in values.map { $0! } }
}
