/// Shares one subscription to a signal per key among all current subscribers.
///
/// The first subscriber for a key starts the signal; later ones join it and see only later values; when the last
/// one leaves (or the signal completes), the shared subscription ends. (Telegram's version never stored the
/// shared instance; this one does, which is what the name promises.)
public final class Multicast<T: Sendable>: Sendable {
    private final class Instance: Sendable {
        let disposable = MetaDisposable()
        let subscribers = LockedValue.make(SubscriberList<T, NoError>())
    }

    private let instances = LockedValue<[String: Instance]>.make([:])

    /// An empty multicast.
    public init() {}

    /// A signal that joins the shared subscription to `signal` under `key`.
    public func get(key: String, signal: Signal<T, NoError>) -> Signal<T, NoError> {
        Signal { subscriber in
            let (instance, index, isNew) = self.instances.withLock { instances in
                let existing = instances[key]
                let instance = existing ?? Instance()
                if existing == nil { instances[key] = instance }
                let index = instance.subscribers.withLock { $0.add(subscriber) }
                return (instance, index, existing == nil)
            }
            if isNew {
                instance.disposable.set(
                    signal.start(
                        next: { next in
                            let current = instance.subscribers.withLock { $0.snapshot() }
                            for subscriber in current { subscriber.putNext(next) }
                        },
                        completed: { [weak self] in
                            self?.remove(key: key, instance: instance)
                            let current = instance.subscribers.withLock { $0.snapshot() }
                            for subscriber in current { subscriber.putCompletion() }
                        }))
            }
            return ActionDisposable { [weak self] in
                let empty = instance.subscribers.withLock { list -> Bool in
                    list.remove(index)
                    return list.isEmpty
                }
                if empty {
                    self?.remove(key: key, instance: instance)
                    instance.disposable.dispose()
                }
            }
        }
    }

    private func remove(key: String, instance: Instance) {
        instances.withLock { instances in
            if instances[key] === instance { instances[key] = nil }
        }
    }
}

/// Telegram's plain holder of subscribers and a last value; callers mutate it under `lock`.
public final class MulticastPromise<T>: @unchecked Sendable {
    // @unchecked Sendable: by contract every access to `subscribers` and `value` happens inside `lock.locked`.
    /// The subscribers' value callbacks.
    public let subscribers = Bag<(T) -> Void>()
    /// The lock guarding `subscribers` and `value`.
    public let lock = Lock()
    /// The last value, if any.
    public var value: T?

    /// An empty holder.
    public init() {}
}
