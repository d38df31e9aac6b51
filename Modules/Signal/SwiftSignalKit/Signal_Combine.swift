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

/// Combines the latest values of an array of signals into an array (an empty array emits `[]` and completes).
public func combineLatest<T: Sendable, E: Sendable>(queue: Queue? = nil, _ signals: [Signal<T, E>]) -> Signal<[T], E> {
    combineLatestCore(queue: queue, signals, initialValues: [:]) { values in values.map { $0! } }
}
