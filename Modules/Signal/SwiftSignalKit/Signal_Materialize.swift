/// One event of a signal as a value.
public enum SignalEvent<T, E> {
    case Next(T)
    case Error(E)
    case Completion
}

extension SignalEvent: Sendable where T: Sendable, E: Sendable {}
extension SignalEvent: Equatable where T: Equatable, E: Equatable {}

/// Turns every event of `signal` into a value, then completes: errors become `.Error` values.
///
/// NB: Telegram names this direction `dematerialize` (Rx calls it `materialize`); we keep Telegram's names so code
/// reads the same on both sides.
public func dematerialize<T, E>(signal: Signal<T, E>) -> Signal<SignalEvent<T, E>, NoError> {
    Signal { subscriber in
        signal.forward(
            to: subscriber, next: { subscriber.putNext(.Next($0)) },
            error: {
                subscriber.putNext(.Error($0))
                subscriber.putCompletion()
            },
            completed: {
                subscriber.putNext(.Completion)
                subscriber.putCompletion()
            })
    }
}

/// Turns a signal of events back into the events themselves (Rx's `dematerialize`; Telegram's `materialize`).
public func materialize<T, E>(signal: Signal<SignalEvent<T, E>, NoError>) -> Signal<T, E> {
    Signal { subscriber in
        signal.forward(
            to: subscriber,
            next: { event in
                switch event {
                case .Next(let value): subscriber.putNext(value)
                case .Error(let error): subscriber.putError(error)
                case .Completion: subscriber.putCompletion()
                }
            }, error: { _ in }, completed: { subscriber.putCompletion() })
    }
}
