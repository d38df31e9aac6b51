import Synchronization

/// The receiving end of one subscription: `putNext`, `putError`, `putCompletion`.
///
/// A subscriber made by `Signal.start` is a guard: it is thread-safe, delivers nothing after its first error or
/// completion (or after it is disposed), drops its closures at that moment (so a closure that captures its owner
/// cannot keep a cycle alive), and disposes the disposable its generator returned.
///
/// Stateless operators (`map`, `filter`, `mapError`, …) do not build a guard of their own: they hand their upstream a
/// *forwarding* subscriber, whose methods call fixed closures that end in the downstream guard. A chain of ten such
/// operators therefore takes one lock per value instead of ten (Telegram's Subscriber takes a pthread mutex at every
/// level). Forwarders hold no mutable state, so they are safe to call from any thread.
public final class Subscriber<T, E>: Disposable, @unchecked Sendable {
    // @unchecked Sendable: the mutable state lives in `state`, a Mutex; `forward` is immutable and its closures
    // are @Sendable.

    struct Forward: Sendable {
        let next: @Sendable (T) -> Void
        let error: @Sendable (E) -> Void
        let completed: @Sendable () -> Void
        let control: any SubscriberControl
    }

    struct State {
        var next: (@Sendable (T) -> Void)?
        var error: (@Sendable (E) -> Void)?
        var completed: (@Sendable () -> Void)?
        var terminated = false
        var disposable: Disposable?
        var kept: [any AnyObject & Sendable] = []
    }

    private let forward: Forward?
    private let state: Mutex<State>

    /// A guarding subscriber over the three closures.
    public init(
        next: (@Sendable (T) -> Void)? = nil, error: (@Sendable (E) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) {
        self.forward = nil
        self.state = Mutex(State(next: next, error: error, completed: completed))
    }

    /// A forwarding subscriber: its events go straight to the closures, which end in `downstream`'s guard.
    @usableFromInline
    init<R, F>(
        forwardingTo downstream: Subscriber<R, F>, next: @escaping @Sendable (T) -> Void,
        error: @escaping @Sendable (E) -> Void, completed: @escaping @Sendable () -> Void
    ) {
        self.forward = Forward(next: next, error: error, completed: completed, control: downstream)
        self.state = Mutex(State())
    }

    /// Delivers a value unless the subscriber has terminated.
    @inlinable
    public func putNext(_ next: T) {
        _putNext(next)
    }

    @usableFromInline
    func _putNext(_ value: T) {
        if let forward {
            forward.next(value)
            return
        }
        let handler = state.withLock { $0.terminated ? nil : $0.next }
        handler?(value)
    }

    /// Delivers the error and terminates: later events are dropped and the assigned disposable is disposed.
    public func putError(_ error: E) {
        if let forward {
            forward.error(error)
            return
        }
        let (handler, disposable, kept) = state.withLock { state -> ((@Sendable (E) -> Void)?, Disposable?, [any AnyObject & Sendable]) in
            if state.terminated { return (nil, nil, []) }
            let result = (state.error, state.disposable, state.kept)
            state.clear()
            return result
        }
        handler?(error)
        disposable?.dispose()
        withExtendedLifetime(kept) {}
    }

    /// Delivers completion and terminates: later events are dropped and the assigned disposable is disposed.
    public func putCompletion() {
        if let forward {
            forward.completed()
            return
        }
        let (handler, disposable, kept) = state.withLock { state -> ((@Sendable () -> Void)?, Disposable?, [any AnyObject & Sendable]) in
            if state.terminated { return (nil, nil, []) }
            let result = (state.completed, state.disposable, state.kept)
            state.clear()
            return result
        }
        handler?()
        disposable?.dispose()
        withExtendedLifetime(kept) {}
    }

    /// Keeps `object` alive until the subscriber terminates or is disposed.
    public func keepAlive(_ object: any AnyObject & Sendable) {
        if let forward {
            forward.control.keepAlive(object)
            return
        }
        let rejected = state.withLock { state -> Bool in
            if state.terminated { return true }
            state.kept.append(object)
            return false
        }
        if rejected { withExtendedLifetime(object) {} }
    }

    /// Whether the subscriber has delivered its terminal event or been disposed.
    public var isTerminated: Bool {
        if let forward { return forward.control.isTerminated }
        return state.withLock { $0.terminated }
    }

    /// Stores the generator's disposable; disposes it at once if the subscriber has already terminated.
    func assignDisposable(_ disposable: Disposable) {
        let alreadyTerminated = state.withLock { state -> Bool in
            if state.terminated { return true }
            state.disposable = disposable
            return false
        }
        if alreadyTerminated { disposable.dispose() }
    }

    /// Cancels the subscription: no further delivery, closures released, the generator's disposable disposed.
    public func dispose() {
        if let forward {
            forward.control.dispose()
            return
        }
        let (disposable, kept) = state.withLock { state -> (Disposable?, [any AnyObject & Sendable]) in
            if state.terminated { return (nil, []) }
            let result = (state.disposable, state.kept)
            state.clear()
            return result
        }
        disposable?.dispose()
        withExtendedLifetime(kept) {}
    }
}

extension Subscriber.State {
    mutating func clear() {
        terminated = true
        next = nil
        error = nil
        completed = nil
        disposable = nil
        kept = []
    }
}

/// What a forwarding subscriber delegates to its downstream guard, whatever the guard's value type.
protocol SubscriberControl: AnyObject, Sendable {
    func keepAlive(_ object: any AnyObject & Sendable)
    var isTerminated: Bool { get }
    func dispose()
}

extension Subscriber: SubscriberControl {}
