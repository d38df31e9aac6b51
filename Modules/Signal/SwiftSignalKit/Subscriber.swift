public import Synchronization

/// The receiving end of one subscription: `putNext`, `putError`, `putCompletion`.
///
/// A subscriber made by `Signal.start` is a guard: it is thread-safe, delivers nothing after its first error or
/// completion (or after it is disposed), drops its closures at that moment (so a closure that captures its owner
/// cannot keep a cycle alive), and disposes the disposable its generator returned.
///
/// Stateless operators (`mapError`, `deliverOn`, side effects, …) do not build a guard of their own: they hand their
/// upstream a *forwarding* subscriber, whose methods call fixed closures that end in the downstream guard (`map` and
/// `filter` go further and fuse into one forwarder per chain, see `SignalFusion`). Telegram's Subscriber takes a
/// pthread mutex for every event at every level; here a value takes no lock at all: the guard passes it through two
/// atomic operations on `deliveries`. Forwarders hold no mutable state, so they are safe to call from any thread.
public final class Subscriber<T, E>: Disposable, @unchecked Sendable {
    // @unchecked Sendable: the mutable state lives in `state`, a LockedValue, and `deliveries`, an atomic word; the
    // forwarding closures and `nextHandler` are immutable and @Sendable (see `deliveries` for when the handler is
    // released).

    @usableFromInline
    struct State {
        @usableFromInline var error: (@Sendable (E) -> Void)?
        @usableFromInline var completed: (@Sendable () -> Void)?
        @usableFromInline var terminated = false
        @usableFromInline var disposable: Disposable?
        @usableFromInline var kept: [any AnyObject & Sendable] = []

        @usableFromInline
        init(error: (@Sendable (E) -> Void)? = nil, completed: (@Sendable () -> Void)? = nil) {
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
    /// A guard's value closure, retained once at `init` and released once by `finishDelivery`/`closeDeliveries`
    /// (`deliveries` says when). Boxed, so the closure keeps the abstraction it is stored with (a bare closure read
    /// into specialized code is re-wrapped in a reabstraction thunk); unmanaged, so `putNext` calls it without a retain.
    @usableFromInline let nextHandler: Unmanaged<NextHandler<T>>?
    /// The value path's own guard, without the lock: bit 0 is set once the subscriber terminates or is disposed (no
    /// `putNext` starts after that), the rest counts the `putNext` calls running `nextHandler` (in steps of 2). The
    /// handler is released by whoever brings the word to "closed, none running": `closeDeliveries` if nothing is
    /// running, else the last running `putNext`. So a handler is never released while it runs (also when it disposes
    /// its own subscription), and per value the guard costs two atomic operations instead of a mutex lock and unlock
    /// and a retain and release of the handler.
    @usableFromInline let deliveries: Synchronization.Atomic<Int>

    /// A guarding subscriber over the three closures.
    public init(
        next: (@Sendable (T) -> Void)? = nil, error: (@Sendable (E) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) {
        self.forwardNext = nil
        self.forwardError = nil
        self.forwardCompleted = nil
        self.control = nil
        self.state = LockedValue.make(State(error: error, completed: completed))
        self.nextHandler = next.map { Unmanaged.passRetained(NextHandler($0)) }
        self.deliveries = Synchronization.Atomic(0)
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
        self.nextHandler = nil
        self.deliveries = Synchronization.Atomic(0)
    }

    deinit {
        // Never closed (dropped without a terminal event or dispose): nothing can be running, release the handler.
        if deliveries.load(ordering: .acquiring) & 1 == 0 { nextHandler?.release() }
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
        guard let handler = nextHandler else { return }
        var current = deliveries.load(ordering: .relaxed)
        while true {
            if current & 1 != 0 { return }
            let (exchanged, original) = deliveries.weakCompareExchange(
                expected: current, desired: current &+ 2, successOrdering: .acquiring, failureOrdering: .relaxed)
            if exchanged { break }
            current = original
        }
        handler._withUnsafeGuaranteedRef { $0.call(value) }
        finishDelivery()
    }

    /// Ends one `putNext`: the last one to end after the subscriber closed releases the handler.
    @inlinable
    func finishDelivery() {
        if deliveries.wrappingSubtract(2, ordering: .acquiringAndReleasing).newValue == 1 {
            nextHandler?.release()
        }
    }

    /// Stops value delivery for good (the subscriber terminated or was disposed); releases the handler now if no
    /// `putNext` is running it, else leaves that to the last one.
    @usableFromInline
    func closeDeliveries() {
        let before = deliveries.bitwiseOr(1, ordering: .acquiringAndReleasing).oldValue
        if before == 0 { nextHandler?.release() }
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
        let (handler, disposable, kept, closing) = state.withLock {
            state -> ((@Sendable (E) -> Void)?, Disposable?, [any AnyObject & Sendable], Bool) in
            if state.terminated { return (nil, nil, [], false) }
            let result = (state.error, state.disposable, state.kept, true)
            state.clear()
            return result
        }
        if closing { closeDeliveries() }
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
        let (handler, disposable, kept, closing) = state.withLock {
            state -> ((@Sendable () -> Void)?, Disposable?, [any AnyObject & Sendable], Bool) in
            if state.terminated { return (nil, nil, [], false) }
            let result = (state.completed, state.disposable, state.kept, true)
            state.clear()
            return result
        }
        if closing { closeDeliveries() }
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
        let (disposable, kept, closing) = state.withLock { state -> (Disposable?, [any AnyObject & Sendable], Bool) in
            if state.terminated { return (nil, [], false) }
            let result = (state.disposable, state.kept, true)
            state.clear()
            return result
        }
        if closing { closeDeliveries() }
        disposable?.dispose()
        withExtendedLifetime(kept) {}
    }
}

extension Subscriber.State {
    @usableFromInline
    mutating func clear() {
        terminated = true
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

/// A guard subscriber's value closure in a box (see `Subscriber.nextHandler`).
@usableFromInline
final class NextHandler<T>: Sendable {
    @usableFromInline let call: @Sendable (T) -> Void

    @usableFromInline
    init(_ call: @escaping @Sendable (T) -> Void) {
        self.call = call
    }
}
