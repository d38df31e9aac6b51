/// A hot holder of the latest value of a signal: `set` a signal, `get` the current value and then every new one.
public final class Promise<T: Sendable>: Sendable {
    private struct State {
        var value: T?
        var subscribers = SubscriberList<T, NoError>()
        var initializeOnFirstAccess: Signal<T, NoError>?
    }

    private let state: LockedValue<State>
    private let disposable = MetaDisposable()
    private let deinitAction = LockedValue<(@Sendable () -> Void)?>.make(nil)

    /// Called when the promise is deallocated.
    public var onDeinit: (@Sendable () -> Void)? {
        get { deinitAction.withLock { $0 } }
        set { deinitAction.withLock { $0 = newValue } }
    }

    /// A promise that subscribes to `signal` the first time someone calls `get()`.
    public init(initializeOnFirstAccess: Signal<T, NoError>?) {
        self.state = LockedValue.make(State(initializeOnFirstAccess: initializeOnFirstAccess))
    }

    /// A promise holding `value`.
    public init(_ value: T) {
        self.state = LockedValue.make(State(value: value))
    }

    /// A promise with no value yet.
    public init() {
        self.state = LockedValue.make(State())
    }

    deinit {
        disposable.dispose()
        deinitAction.withLock { $0 }?()
    }

    /// Forgets the current value and follows `signal` from now on.
    public func set(_ signal: Signal<T, NoError>) {
        state.withLock { state in
            state.value = nil
            state.initializeOnFirstAccess = nil
        }
        disposable.set(
            signal.start(next: { [weak self] next in
                self?.publish(next)
            }))
    }

    private func publish(_ next: T) {
        let subscribers = state.withLock { state -> [Subscriber<T, NoError>] in
            state.value = next
            return state.subscribers.snapshot()
        }
        for subscriber in subscribers {
            subscriber.putNext(next)
        }
    }

    /// The current value (if any), then every later one; never completes.
    public func get() -> Signal<T, NoError> {
        Signal { subscriber in
            let (current, index, initialize) = self.state.withLock { state in
                let initialize = state.initializeOnFirstAccess
                state.initializeOnFirstAccess = nil
                return (state.value, state.subscribers.add(subscriber), initialize)
            }
            if let current {
                subscriber.putNext(current)
            }
            if let initialize {
                self.set(initialize)
            }
            return ActionDisposable { [weak self] in
                self?.state.withLock { $0.subscribers.remove(index) }
            }
        }
    }
}

/// A hot holder of a value set directly; `ignoreRepeated` skips values equal to the current one.
public final class ValuePromise<T: Equatable & Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var value: T?
        @usableFromInline var subscribers = SubscriberList<T, NoError>()

        @usableFromInline
        init(value: T?) {
            self.value = value
        }
    }

    @usableFromInline let state: LockedValue<State>
    /// Whether `set` ignores a value equal to the current one.
    public let ignoreRepeated: Bool

    /// A promise holding `value`.
    public init(_ value: T, ignoreRepeated: Bool = false) {
        self.state = LockedValue.make(State(value: value))
        self.ignoreRepeated = ignoreRepeated
    }

    /// A promise with no value yet.
    public init(ignoreRepeated: Bool = false) {
        self.state = LockedValue.make(State(value: nil))
        self.ignoreRepeated = ignoreRepeated
    }

    /// The current value: Telegram kept it private, which made callers mirror it in an `Atomic` beside the promise.
    public var value: T? {
        state.withLock { $0.value }
    }

    /// Stores `value` and delivers it to every subscriber (unless `ignoreRepeated` and unchanged).
    @inlinable
    public func set(_ value: T) {
        let subscribers = state.withLock { state -> [Subscriber<T, NoError>]? in
            if ignoreRepeated, let current = state.value, current == value { return nil }
            state.value = value
            return state.subscribers.snapshot()
        }
        guard let subscribers else { return }
        for subscriber in subscribers {
            subscriber.putNext(value)
        }
    }

    /// The current value (if any), then every later one; never completes.
    public func get() -> Signal<T, NoError> {
        Signal { subscriber in
            let (current, index) = self.state.withLock { state in
                (state.value, state.subscribers.add(subscriber))
            }
            if let current {
                subscriber.putNext(current)
            }
            return ActionDisposable { [weak self] in
                self?.state.withLock { $0.subscribers.remove(index) }
            }
        }
    }
}
