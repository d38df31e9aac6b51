/// A signal that delivers `value` and completes (the `|>`-free spelling of `Signal.single`).
public func single<T: Sendable, E>(_ value: T, _ errorType: E.Type) -> Signal<T, E> {
    Signal<T, E>.single(value)
}

/// A signal that fails at once with `error`.
public func fail<T, E: Sendable>(_ valueType: T.Type, _ error: E) -> Signal<T, E> {
    Signal<T, E>.fail(error)
}

/// A signal that completes at once.
public func complete<T, E>(_ valueType: T.Type, _ error: E.Type) -> Signal<T, E> {
    Signal<T, E>.complete()
}

/// A signal that never delivers anything.
public func never<T, E>(_ valueType: T.Type, _ error: E.Type) -> Signal<T, E> {
    Signal<T, E>.never()
}
