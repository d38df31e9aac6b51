/// An object confined to a queue: every access runs on that queue (Telegram's actor-like holder pattern).
///
/// `T` need not be Sendable: the object is created, used and released on `queue` only.
public final class QueueLocalObject<T: AnyObject>: @unchecked Sendable {
    // @unchecked Sendable: `valueRef` is touched only on `queue` (init dispatches there, deinit releases there).
    public let queue: Queue
    private nonisolated(unsafe) var valueRef: Unmanaged<T>?

    /// Creates the object on `queue` with `generate`.
    public init(queue: Queue, generate: @escaping @Sendable () -> T) {
        self.queue = queue
        queue.async {
            self.valueRef = Unmanaged.passRetained(generate())
        }
    }

    deinit {
        if let valueRef {
            let box = UncheckedSendableBox(valueRef)
            queue.async {
                box.value.release()
            }
        }
    }

    /// Runs `f` with the object on the queue.
    public func with(_ f: @escaping @Sendable (T) -> Void) {
        queue.async {
            if let object = self.valueRef?.takeUnretainedValue() {
                f(object)
            }
        }
    }

    /// Runs `f` with the object on the queue and waits for its result.
    public func syncWith<R>(_ f: (T) -> R) -> R? {
        var result: R?
        queue.sync {
            if let object = self.valueRef?.takeUnretainedValue() {
                result = f(object)
            }
        }
        return result
    }

    /// A signal that, on each subscription, runs `f` with the object on the queue and forwards its signal.
    public func signalWith<R, E>(_ f: @escaping @Sendable (T, Subscriber<R, E>) -> Disposable) -> Signal<R, E> {
        return Signal { subscriber in
            let disposable = MetaDisposable()
            self.queue.async {
                if let object = self.valueRef?.takeUnretainedValue() {
                    disposable.set(f(object, subscriber))
                }
            }
            return disposable
        }
    }

    /// The object without hopping to the queue; only for callers already on `queue`.
    public func unsafeGet() -> T? {
        valueRef?.takeUnretainedValue()
    }
}
