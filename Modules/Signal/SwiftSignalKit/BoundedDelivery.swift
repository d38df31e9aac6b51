/// What `deliverOn(_:bufferLimit:policy:)` does when `bufferLimit` values already wait for the queue.
public enum DeliveryBufferPolicy: Sendable {
    /// Drop the oldest waiting value to make room for the new one (a sliding window of the latest values).
    case dropOldest
    /// Replace the newest waiting value with the new one (with a limit of 1: always deliver only the latest).
    case keepLatest
}

/// The per-subscription buffer of bounded delivery: values wait here, and one drain task runs on the queue.
final class BoundedDeliveryBuffer<T: Sendable, E: Sendable>: Sendable {
    private struct State {
        var values: [T] = []
        var head = 0
        var terminal: SignalEvent<T, E>?
        var terminalDelivered = false
        var draining = false
    }

    private let state = LockedValue.make(State())
    private let queue: Queue
    private let limit: Int
    private let policy: DeliveryBufferPolicy
    private let subscriber: Subscriber<T, E>

    init(queue: Queue, limit: Int, policy: DeliveryBufferPolicy, subscriber: Subscriber<T, E>) {
        self.queue = queue
        self.limit = max(1, limit)
        self.policy = policy
        self.subscriber = subscriber
    }

    func put(_ value: T) {
        let schedule = state.withLock { state -> Bool in
            if state.terminal != nil { return false }
            let waiting = state.values.count - state.head
            if waiting >= limit {
                switch policy {
                case .dropOldest: state.head += 1
                case .keepLatest: state.values.removeLast()
                }
            }
            state.values.append(value)
            return startDrain(&state)
        }
        if schedule { queue.justDispatch { self.drain() } }
    }

    func terminate(_ event: SignalEvent<T, E>) {
        let schedule = state.withLock { state -> Bool in
            if state.terminal != nil { return false }
            state.terminal = event
            return startDrain(&state)
        }
        if schedule { queue.justDispatch { self.drain() } }
    }

    private func startDrain(_ state: inout State) -> Bool {
        if state.draining { return false }
        state.draining = true
        return true
    }

    /// Runs on the queue: delivers what waits, one value at a time, so new arrivals can still be dropped.
    private func drain() {
        while true {
            let next = state.withLock { state -> SignalEvent<T, E>? in
                if state.head < state.values.count {
                    let value = state.values[state.head]
                    state.head += 1
                    if state.head == state.values.count {
                        state.values.removeAll(keepingCapacity: true)
                        state.head = 0
                    } else if state.head > 64 && state.head * 2 > state.values.count {
                        state.values.removeFirst(state.head)
                        state.head = 0
                    }
                    return .Next(value)
                }
                if let terminal = state.terminal, !state.terminalDelivered {
                    state.terminalDelivered = true
                    return terminal
                }
                state.draining = false
                return nil
            }
            guard let next else { return }
            switch next {
            case .Next(let value): subscriber.putNext(value)
            case .Error(let error):
                subscriber.putError(error)
                return
            case .Completion:
                subscriber.putCompletion()
                return
            }
        }
    }
}

/// Delivers on `queue` with at most `bufferLimit` values waiting; `policy` says which value a full buffer drops.
///
/// Why: plain `deliverOn` lets a fast producer grow the queue without bound. Terminal events are never
/// dropped and arrive after the waiting values.
public func deliverOn<T: Sendable, E: Sendable>(
    _ queue: Queue, bufferLimit: Int, policy: DeliveryBufferPolicy
) -> (
    Signal<T, E>
) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            let buffer = BoundedDeliveryBuffer(queue: queue, limit: bufferLimit, policy: policy, subscriber: subscriber)
            return signal.forward(
                to: subscriber, next: { buffer.put($0) }, error: { buffer.terminate(.Error($0)) },
                completed: { buffer.terminate(.Completion) })
        }
    }
}
