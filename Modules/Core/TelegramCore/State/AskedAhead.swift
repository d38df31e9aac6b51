import SwiftSignalKit

/// A request started before anyone asked for its answer, which `answer` later hands to one subscriber: what arrived
/// meanwhile at once, the rest as it comes. The state manager asks for a channel's next difference slice this way the
/// moment a slice that is not final arrives, on the network's thread, so the server works on the next slice while
/// this one crosses to the manager's queue (the request is the one the manager then makes:
/// `UpdateSequencer.nextChannelSlicePts`).
///
/// Dropping it, or disposing of `answer`'s subscription, cancels the request.
final class AskedAhead<T, E>: @unchecked Sendable {
    private enum Event {
        case next(T)
        case error(E)
        case completion
    }

    private struct State {
        var arrived: [Event] = []
        var subscriber: Subscriber<T, E>?
        var taken = false
    }

    private let state = LockedValue(State())
    private let request = MetaDisposable()

    /// Starts `request` now.
    init(_ request: Signal<T, E>) {
        let state = self.state
        let deliver: @Sendable (Event) -> Void = { event in
            let subscriber = state.withLock { state -> Subscriber<T, E>? in
                guard let subscriber = state.subscriber else {
                    state.arrived.append(event)
                    return nil
                }
                return subscriber
            }
            subscriber.map { Self.put(event, to: $0) }
        }
        self.request.set(
            request.start(
                next: { deliver(.next($0)) }, error: { deliver(.error($0)) }, completed: { deliver(.completion) }))
    }

    deinit {
        request.dispose()
    }

    /// The request's events: those that arrived before the subscription, then the rest. One subscriber only: a second
    /// gets only a completion, and disposing of it cancels nothing.
    var answer: Signal<T, E> {
        Signal { subscriber in
            // Events arriving while the early ones are handed over wait in `arrived` behind them.
            var taken = false
            while true {
                let early = self.state.withLock { state -> [Event]? in
                    guard !state.taken || taken else { return nil }
                    state.taken = true
                    taken = true
                    if state.arrived.isEmpty {
                        state.subscriber = subscriber
                        return []
                    }
                    defer { state.arrived = [] }
                    return state.arrived
                }
                guard let early, !early.isEmpty else { break }
                for event in early { Self.put(event, to: subscriber) }
            }
            guard taken else {
                subscriber.putCompletion()
                return EmptyDisposable
            }
            return ActionDisposable { self.request.dispose() }
        }
    }

    private static func put(_ event: Event, to subscriber: Subscriber<T, E>) {
        switch event {
        case .next(let value): subscriber.putNext(value)
        case .error(let error): subscriber.putError(error)
        case .completion: subscriber.putCompletion()
        }
    }
}
