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
    // @unchecked Sendable: the mutable state lives in `state`, a LockedValue; the forwarding closures are immutable and
    // are @Sendable.

    @usableFromInline
    struct State {
        // Boxed: read out of the lock as a class reference, the closure keeps the abstraction it is stored with, so
        // specialized callers call it as it is instead of wrapping it in a reabstraction thunk (an allocation per
        // value, as a bare closure field cost).
        @usableFromInline var next: NextHandler<T>?
        @usableFromInline var error: (@Sendable (E) -> Void)?
        @usableFromInline var completed: (@Sendable () -> Void)?
        @usableFromInline var terminated = false
        @usableFromInline var disposable: Disposable?
        @usableFromInline var kept: [any AnyObject & Sendable] = []

        @usableFromInline
        init(
            next: (@Sendable (T) -> Void)? = nil, error: (@Sendable (E) -> Void)? = nil,
            completed: (@Sendable () -> Void)? = nil
        ) {
            self.next = next.map(NextHandler.init)
            self.error = error
            self.completed = completed
        }
    }

    // Forwarding subscribers: immutable, read without a lock. Separate fields so a call loads one closure (no copy of
    // a struct of four references, which cost four retains and releases per event).
    @usableFromInline let forwardNext: (@Sendable (T) -> Void)?
    @usableFromInline let forwardError: (@Sendable (E) -> Void)?
    @usableFromInline let forwardCompleted: (@Sendable () -> Void)?
    @usableFromInline let control: (any SubscriberControl)?
    @usableFromInline let state: LockedValue<State>

    /// A guarding subscriber over the three closures.
    public init(
        next: (@Sendable (T) -> Void)? = nil, error: (@Sendable (E) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) {
        self.forwardNext = nil
        self.forwardError = nil
        self.forwardCompleted = nil
        self.control = nil
        self.state = LockedValue.make(State(next: next, error: error, completed: completed))
    }

    /// A forwarding subscriber: its events go straight to the closures, which end in `downstream`'s guard.
    @usableFromInline
    init(
        forwardingTo downstream: any SubscriberControl, next: @escaping @Sendable (T) -> Void,
        error: @escaping @Sendable (E) -> Void, completed: @escaping @Sendable () -> Void
    ) {
        self.forwardNext = next
        self.forwardError = error
        self.forwardCompleted = completed
        self.control = downstream
        self.state = LockedValue.make(State())
    }

    /// Delivers a value unless the subscriber has terminated.
    @inlinable
    public func putNext(_ next: T) {
        // Optional chaining on the stored field calls the closure in place; `if let` would copy it out, a retain and
        // a release of its context per value.
        if forwardNext == nil {
            guardedPutNext(next)
        } else {
            forwardNext?(next)
        }
    }

    @inlinable
    func guardedPutNext(_ value: T) {
        // The box is retained while the lock is held (a concurrent dispose may drop it); its closure is then called
        // from the box in place, without a second retain of the closure's context.
        if let handler = state.withLock({ $0.terminated ? nil : $0.next }) {
            withExtendedLifetime(handler) { handler.call(value) }
        }
    }

    /// Delivers the error and terminates: later events are dropped and the assigned disposable is disposed.
    @inlinable
    public func putError(_ error: E) {
        if forwardError == nil {
            guardedPutError(error)
        } else {
            forwardError?(error)
        }
    }

    @usableFromInline
    func guardedPutError(_ error: E) {
        let (handler, disposable, kept) = state.withLock {
            state -> ((@Sendable (E) -> Void)?, Disposable?, [any AnyObject & Sendable]) in
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
    @inlinable
    public func putCompletion() {
        if forwardCompleted == nil {
            guardedPutCompletion()
        } else {
            forwardCompleted?()
        }
    }

    @usableFromInline
    func guardedPutCompletion() {
        let (handler, disposable, kept) = state.withLock {
            state -> ((@Sendable () -> Void)?, Disposable?, [any AnyObject & Sendable]) in
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
        if let control {
            control.keepAlive(object)
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
        if let control { return control.isTerminated }
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
        if let control {
            control.dispose()
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
    @usableFromInline
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
@usableFromInline
protocol SubscriberControl: AnyObject, Sendable {
    func keepAlive(_ object: any AnyObject & Sendable)
    var isTerminated: Bool { get }
    func dispose()
}

extension Subscriber: SubscriberControl {}

/// A guard subscriber's value closure in a box (see `Subscriber.State.next`).
@usableFromInline
final class NextHandler<T>: Sendable {
    @usableFromInline let call: @Sendable (T) -> Void

    @usableFromInline
    init(_ call: @escaping @Sendable (T) -> Void) {
        self.call = call
    }
}
