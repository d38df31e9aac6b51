/// A signal that never delivers a value (Telegram's `NoValue`), for `Signal<NoValue, E>` that only terminates.
public enum NoValue: Sendable {}

/// An error type with no cases (Telegram's `NoError`): a `Signal<T, NoError>` can only deliver values and complete.
public enum NoError: Sendable, Equatable {}

/// Returns its argument unchanged.
public func identity<A>(_ a: A) -> A {
    a
}

precedencegroup PipeRight {
    associativity: left
    higherThan: DefaultPrecedence
}

/// The pipe: `signal |> map { … } |> take(1)` applies each operator to the signal on its left.
infix operator |> : PipeRight

/// Applies `function` to `value`; the glue of Telegram-style operator chains.
@inlinable
public func |> <T, U>(value: T, function: (T) -> U) -> U {
    function(value)
}

/// A cold stream of values of type `T` that ends with at most one error `E` or one completion.
///
/// Nothing happens until `start`: each start runs the generator with a fresh `Subscriber` and returns the
/// `Disposable` that cancels that one subscription.
public final class Signal<T, E>: Sendable {
    @usableFromInline let generator: @Sendable (Subscriber<T, E>) -> Disposable
    /// Set when the signal was built by `map`/`filter`: the fused chain its generator runs, which a further
    /// `map`/`filter` extends instead of wrapping (see `SignalFusion`).
    @usableFromInline let fusion: SignalFusion<T, E>?

    /// A signal whose subscriptions each run `generator`; the generator returns what cancels its work.
    public init(_ generator: @escaping @Sendable (Subscriber<T, E>) -> Disposable) {
        self.generator = generator
        self.fusion = nil
    }

    /// A signal whose generator runs `fusion`.
    @usableFromInline
    init(fusion: SignalFusion<T, E>, generator: @escaping @Sendable (Subscriber<T, E>) -> Disposable) {
        self.generator = generator
        self.fusion = fusion
    }

    /// Subscribes; the closures receive the values and the one terminal event. Disposing the result stops delivery.
    @discardableResult
    public func start(
        next: (@Sendable (T) -> Void)? = nil, error: (@Sendable (E) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) -> Disposable {
        let subscriber = Subscriber<T, E>(next: next, error: error, completed: completed)
        let disposable = generator(subscriber)
        subscriber.assignDisposable(disposable)
        return subscriber
    }

    /// Telegram's spelling of `start` for subscriptions that are deliberately not tied to an owner.
    @discardableResult
    public func startStandalone(
        next: (@Sendable (T) -> Void)? = nil, error: (@Sendable (E) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) -> Disposable {
        start(next: next, error: error, completed: completed)
    }

    /// Telegram's `startStrict`: a `start` whose call site is recorded for leak reports (kept for API parity).
    @discardableResult
    public func startStrict(
        next: (@Sendable (T) -> Void)? = nil, error: (@Sendable (E) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil, file: String = #file, line: Int = #line
    ) -> Disposable {
        start(next: next, error: error, completed: completed)
    }

    /// Runs the generator with an existing subscriber (the fused path of stateless operators).
    @inlinable
    func startForwarding(_ subscriber: Subscriber<T, E>) -> Disposable {
        generator(subscriber)
    }
}

extension Signal where T: Sendable {
    /// A signal that delivers `value` and completes.
    public static func single(_ value: T) -> Signal<T, E> {
        Signal { subscriber in
            subscriber.putNext(value)
            subscriber.putCompletion()
            return EmptyDisposable
        }
    }
}

extension Signal where E: Sendable {
    /// A signal that fails with `error` at once.
    public static func fail(_ error: E) -> Signal<T, E> {
        Signal { subscriber in
            subscriber.putError(error)
            return EmptyDisposable
        }
    }
}

extension Signal {
    /// A signal that completes at once without values.
    public static func complete() -> Signal<T, E> {
        Signal { subscriber in
            subscriber.putCompletion()
            return EmptyDisposable
        }
    }

    /// A signal that never delivers anything.
    public static func never() -> Signal<T, E> {
        Signal { _ in EmptyDisposable }
    }
}
