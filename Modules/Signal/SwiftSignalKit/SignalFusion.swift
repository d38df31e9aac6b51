/// One stateless step of a fused run whose values keep their type: a `map` from `T` to `T` or a `filter`.
@usableFromInline
enum FusedStage<T>: Sendable {
    case map(@Sendable (T) -> T)
    case filter(@Sendable (T) -> Bool)
}

/// A fused run's steps as a list, applied by `run` in one loop.
///
/// Why a list of objects and not an array of `FusedStage` or nested closures: reading a closure out of an array
/// element or an `if let` copies it (a retain and a release per step and value), and nested closures cost a call
/// frame each. Here `run` reads each step's closure from the node's `let` field in place (optional chaining on the
/// field), and its tail call to the next node becomes a loop: per step and value, a few loads and the call of the
/// step's closure.
@usableFromInline
final class FusedStep<T>: Sendable {
    @usableFromInline let map: (@Sendable (T) -> T)?
    @usableFromInline let filter: (@Sendable (T) -> Bool)?
    @usableFromInline let next: FusedStep<T>?

    @usableFromInline
    init(_ stage: FusedStage<T>, next: FusedStep<T>?) {
        switch stage {
        case .map(let f):
            map = f
            filter = nil
        case .filter(let f):
            map = nil
            filter = f
        }
        self.next = next
    }

    /// A list of `stages`, in order.
    @inlinable
    static func list(_ stages: [FusedStage<T>]) -> FusedStep<T>? {
        stages.reversed().reduce(nil) { next, stage in FusedStep(stage, next: next) }
    }

    /// Applies this step and those after it to `value`; false if a filter dropped it.
    @inlinable
    final func run(_ value: inout T) -> Bool {
        if let mapped = map?(value) {
            value = mapped
        } else if filter?(value) == false {
            return false
        }
        return next?.run(&value) ?? true
    }
}

/// How a signal built by `map`/`filter` runs: the chain's head, then its same-typed steps in one loop.
///
/// `map` and `filter` applied to a signal that already carries a fusion do not wrap it in another forwarding
/// subscriber: they return a signal with the same head and one more step. Subscribing runs the head once (which
/// subscribes the source anew, so each subscription still runs the source again, as in Telegram) with a single
/// forwarding subscriber whose value closure runs the steps (`FusedStep`) in one loop and hands the survivor to the
/// downstream subscriber. A chain of ten costs one forwarder instead of ten, and per value one call of each user
/// closure, no retain and no lock of its own. A `map` that changes the
/// value type starts a new run of steps whose head feeds it from the previous run (still no extra subscriber).
///
/// Errors and completion go straight from the head's forwarder to the downstream subscriber, which (a guard, or a
/// forwarder ending in one) enforces "nothing after the terminal event" and disposal, as before.
@usableFromInline
final class SignalFusion<T, E>: Sendable {
    /// Subscribes the chain's source; each value that reaches this run goes to `next`, the terminal events to
    /// `error`/`completed`; `control` is the downstream subscriber (for `keepAlive`, `isTerminated`, `dispose`).
    @usableFromInline let head:
        @Sendable (
            _ control: any SubscriberControl, _ next: @escaping @Sendable (T) -> Void,
            _ error: @escaping @Sendable (E) -> Void, _ completed: @escaping @Sendable () -> Void
        ) -> Disposable
    /// The run's steps, in order (what a further `map`/`filter` extends).
    @usableFromInline let stages: [FusedStage<T>]
    /// The same steps as the list subscriptions run; nil when the run has no steps yet.
    @usableFromInline let steps: FusedStep<T>?

    @usableFromInline
    init(
        head:
            @escaping @Sendable (
                _ control: any SubscriberControl, _ next: @escaping @Sendable (T) -> Void,
                _ error: @escaping @Sendable (E) -> Void, _ completed: @escaping @Sendable () -> Void
            ) -> Disposable,
        stages: [FusedStage<T>]
    ) {
        self.head = head
        self.stages = stages
        self.steps = FusedStep.list(stages)
    }

    /// A run with no steps yet over `source`, whose generator gets the one forwarding subscriber.
    @inlinable
    convenience init(source: Signal<T, E>) {
        self.init(
            head: { control, next, error, completed in
                source.forward(to: control, next: next, error: error, completed: completed)
            }, stages: [])
    }

    /// The same head with `stage` added at the end.
    @inlinable
    func appending(_ stage: FusedStage<T>) -> SignalFusion<T, E> {
        SignalFusion(head: head, stages: stages + CollectionOfOne(stage))
    }

    /// Runs the chain for one subscription: every value that passes all steps goes to `next`.
    @inlinable
    func run(
        control: any SubscriberControl, next: @escaping @Sendable (T) -> Void,
        error: @escaping @Sendable (E) -> Void, completed: @escaping @Sendable () -> Void
    ) -> Disposable {
        guard let steps else { return head(control, next, error, completed) }
        return head(
            control,
            { value in
                var value = value
                if steps.run(&value) { next(value) }
            }, error, completed)
    }

    /// Runs the chain for one subscription, ending in `subscriber`. Not `run` with a `putNext` closure: that adds a
    /// closure call per value, 4 % of signal-bench (a).
    @inlinable
    func subscribe(_ subscriber: Subscriber<T, E>) -> Disposable {
        guard let steps else {
            return head(
                subscriber, { subscriber.putNext($0) }, { subscriber.putError($0) }, { subscriber.putCompletion() })
        }
        return head(
            subscriber,
            { value in
                var value = value
                if steps.run(&value) { subscriber.putNext(value) }
            }, { subscriber.putError($0) }, { subscriber.putCompletion() })
    }
}

extension Signal {
    /// A signal that runs `fusion` for each subscription.
    @inlinable
    convenience init(fusion: SignalFusion<T, E>) {
        self.init(fusion: fusion, generator: { subscriber in fusion.subscribe(subscriber) })
    }

    /// This signal's fusion, or a new run with no steps over it.
    @inlinable
    var fusionForAppending: SignalFusion<T, E> {
        fusion ?? SignalFusion(source: self)
    }

    /// The signal with a same-typed `map` step added to its fused chain.
    @inlinable
    func fusedMapSameType(_ f: @escaping @Sendable (T) -> T) -> Signal<T, E> {
        Signal(fusion: fusionForAppending.appending(.map(f)))
    }

    /// The signal with a `filter` step added to its fused chain.
    @inlinable
    func fusedFilter(_ f: @escaping @Sendable (T) -> Bool) -> Signal<T, E> {
        Signal(fusion: fusionForAppending.appending(.filter(f)))
    }

    /// The signal whose values are this signal's passed through `f`, as the head of a new fused run.
    @inlinable
    func fusedMap<R>(_ f: @escaping @Sendable (T) -> R) -> Signal<R, E> {
        let upstream = fusionForAppending
        return Signal<R, E>(
            fusion: SignalFusion<R, E>(
                head: { control, next, error, completed in
                    upstream.run(control: control, next: { next(f($0)) }, error: error, completed: completed)
                }, stages: []))
    }
}
