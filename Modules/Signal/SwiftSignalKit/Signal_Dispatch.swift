/// Delivers every event on `queue` (inline when already on it), in order.
@inlinable
public func deliverOn<T: Sendable, E: Sendable>(_ queue: Queue) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            signal.forward(
                to: subscriber, next: { next in queue.async { subscriber.putNext(next) } },
                error: { error in queue.async { subscriber.putError(error) } },
                completed: { queue.async { subscriber.putCompletion() } })
        }
    }
}

/// Delivers every event on the main queue.
public func deliverOnMainQueue<T: Sendable, E: Sendable>(_ signal: Signal<T, E>) -> Signal<T, E> {
    signal |> deliverOn(Queue.mainQueue())
}

/// Delivers every event on a thread of `threadPool`, in order (one serial lane per subscription).
public func deliverOn<T: Sendable, E: Sendable>(_ threadPool: ThreadPool) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            let lane = threadPool.nextQueue()
            return signal.forward(
                to: subscriber,
                next: { next in lane.addTask(ThreadPoolTask { _ in subscriber.putNext(next) }) },
                error: { error in lane.addTask(ThreadPoolTask { _ in subscriber.putError(error) }) },
                completed: { lane.addTask(ThreadPoolTask { _ in subscriber.putCompletion() }) })
        }
    }
}

/// Starts (subscribes to) the signal on `queue`; synchronously when already on it. Disposing before the queue
/// runs the start cancels it (Telegram would start and dispose at once).
public func runOn<T, E>(_ queue: Queue) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            if queue.isCurrent() {
                return signal.forwardAll(to: subscriber)
            }
            let disposable = MetaDisposable()
            queue.async {
                // Disposed before the queue got to it: do not start at all.
                if subscriber.isTerminated { return }
                disposable.set(signal.forwardAll(to: subscriber))
            }
            return disposable
        }
    }
}

/// Starts the signal on a thread of `threadPool`; disposing before it starts cancels the start.
public func runOn<T, E>(_ threadPool: ThreadPool) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            let disposable = MetaDisposable()
            let task = ThreadPoolTask { state in
                if !state.cancelled.with({ $0 }) {
                    disposable.set(signal.forwardAll(to: subscriber))
                }
            }
            disposable.set(ActionDisposable { task.cancel() })
            threadPool.addTask(task)
            return disposable
        }
    }
}
