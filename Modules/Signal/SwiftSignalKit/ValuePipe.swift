/// A hot stream: `putNext` delivers to the current subscribers of `signal()`; nothing is replayed.
public final class ValuePipe<T: Sendable>: Sendable {
    @usableFromInline let subscribers = LockedValue.make(SubscriberList<T, NoError>())

    /// A pipe with no subscribers.
    public init() {}

    /// A signal of the values put after each subscription starts; never completes.
    public func signal() -> Signal<T, NoError> {
        Signal { subscriber in
            let index = self.subscribers.withLock { $0.add(subscriber) }
            return ActionDisposable { [weak self] in
                self?.subscribers.withLock { $0.remove(index) }
            }
        }
    }

    /// Delivers `next` to every current subscriber.
    @inlinable
    public func putNext(_ next: T) {
        let current = subscribers.withLock { $0.snapshot() }
        for subscriber in current {
            subscriber.putNext(next)
        }
    }
}
