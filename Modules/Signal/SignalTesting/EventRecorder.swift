import Dispatch
public import SwiftSignalKit

/// One recorded event and the virtual time it arrived at.
public struct RecordedEvent<T, E> {
    /// Virtual seconds (0 without a scheduler), or the recorder's own clock.
    public let time: Double
    /// What arrived.
    public let event: SignalEvent<T, E>

    /// An event at `time`.
    public init(_ time: Double, _ event: SignalEvent<T, E>) {
        self.time = time
        self.event = event
    }
}

extension RecordedEvent: Equatable where T: Equatable, E: Equatable {}
extension RecordedEvent: Sendable where T: Sendable, E: Sendable {}

/// Subscribes to a signal and records everything it delivers, so a test can compare the whole history at once.
public final class EventRecorder<T: Sendable, E: Sendable>: Sendable {
    private let clock: @Sendable () -> Double
    private let recorded = LockedValue<[RecordedEvent<T, E>]>.make([])
    private let disposable = MetaDisposable()
    private let arrivals = DispatchSemaphore(value: 0)

    /// A recorder stamping events with `scheduler`'s time (or 0).
    public init(scheduler: VirtualTimeScheduler? = nil) {
        self.clock = { scheduler?.now ?? 0 }
    }

    /// A recorder stamping events with `clock` (for signals fed by real threads or processes, where a test measures
    /// how long delivery took), already subscribed to `signal`.
    public init(_ signal: Signal<T, E>, clock: @escaping @Sendable () -> Double) {
        self.clock = clock
        start(signal)
    }

    /// A recorder already subscribed to `signal`.
    public convenience init(_ signal: Signal<T, E>, scheduler: VirtualTimeScheduler? = nil) {
        self.init(scheduler: scheduler)
        start(signal)
    }

    /// Subscribes to `signal` (replacing, and disposing, any earlier subscription of this recorder).
    public func start(_ signal: Signal<T, E>) {
        disposable.set(
            signal.start(
                next: { [self] in record(.Next($0)) }, error: { [self] in record(.Error($0)) },
                completed: { [self] in record(.Completion) }))
    }

    private func record(_ event: SignalEvent<T, E>) {
        let time = clock()
        recorded.withLock { $0.append(RecordedEvent(time, event)) }
        arrivals.signal()
    }

    /// Waits until at least `count` events arrived or `seconds` of real time passed, for signals that deliver on
    /// other threads or after another process acted; returns whether they arrived.
    public func waitForEvents(_ count: Int, seconds: Double) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while recorded.withLock({ $0.count }) < count {
            if arrivals.wait(timeout: deadline) == .timedOut { return recorded.withLock { $0.count } >= count }
        }
        return true
    }

    /// Disposes the subscription.
    public func dispose() {
        disposable.dispose()
    }

    /// The events, in order.
    public var events: [SignalEvent<T, E>] { recorded.withLock { $0.map(\.event) } }

    /// The events with their times.
    public var timedEvents: [RecordedEvent<T, E>] { recorded.withLock { $0 } }

    /// The values only.
    public var values: [T] {
        recorded.withLock { events in
            events.compactMap { if case .Next(let value) = $0.event { return value } else { return nil } }
        }
    }

    /// Whether an error or completion has been recorded.
    public var isTerminated: Bool {
        recorded.withLock { events in
            events.contains { if case .Next = $0.event { return false } else { return true } }
        }
    }
}

/// A hand-driven source for tests: counts subscriptions and disposals, and lets the test put events.
public final class TestSource<T: Sendable, E: Sendable>: Sendable {
    private struct State {
        var subscribers: [Int: Subscriber<T, E>] = [:]
        var nextId = 0
        var subscriptions = 0
        var disposals = 0
    }

    private let state = LockedValue.make(State())

    /// A source with no subscribers.
    public init() {}

    /// The signal; each start registers a subscriber until disposed.
    public var signal: Signal<T, E> {
        Signal { subscriber in
            let id = self.state.withLock { state -> Int in
                state.nextId += 1
                state.subscriptions += 1
                state.subscribers[state.nextId] = subscriber
                return state.nextId
            }
            return ActionDisposable {
                self.state.withLock { state in
                    state.subscribers[id] = nil
                    state.disposals += 1
                }
            }
        }
    }

    private var current: [Subscriber<T, E>] {
        state.withLock { state in state.subscribers.sorted { $0.key < $1.key }.map(\.value) }
    }

    /// Delivers `value` to every live subscriber.
    public func putNext(_ value: T) {
        for subscriber in current { subscriber.putNext(value) }
    }

    /// Fails every live subscriber.
    public func putError(_ error: E) {
        for subscriber in current { subscriber.putError(error) }
    }

    /// Completes every live subscriber.
    public func putCompletion() {
        for subscriber in current { subscriber.putCompletion() }
    }

    /// How many times the signal was started.
    public var subscriptionCount: Int { state.withLock { $0.subscriptions } }

    /// How many subscriptions were disposed (explicitly or after a terminal event).
    public var disposalCount: Int { state.withLock { $0.disposals } }

    /// How many subscriptions are live.
    public var activeCount: Int { state.withLock { $0.subscribers.count } }
}
