/// Subscribes to the signal `timeout` seconds later, on `queue` (disposing before then cancels the start).
public func delay<T, E>(_ timeout: Double, queue: Queue) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            let disposable = MetaDisposable()
            queue.async {
                let timer = Timer(
                    timeout: timeout, repeat: false,
                    completion: { disposable.set(signal.forwardAll(to: subscriber)) }, queue: queue)
                disposable.set(ActionDisposable { timer.invalidate() })
                timer.start()
            }
            return disposable
        }
    }
}

/// `delay` on the queue's wall clock: checks every `granularity` seconds whether the deadline passed, so a process
/// that was suspended (where monotonic timers stop) still fires close to the wall-clock deadline.
///
/// Like Telegram, when the deadline has already passed on the final check the start waits a minimum of 0.5 s.
public func suspendAwareDelay<T, E>(
    _ timeout: Double, granularity: Double = 4.0, queue: Queue
) -> (Signal<T, E>)
    -> Signal<T, E>
{
    { signal in
        Signal<T, E> { subscriber in
            let disposable = MetaDisposable()
            queue.async {
                let begin = queue.currentTime
                let startFinalTimer: @Sendable () -> Void = {
                    let remaining = begin + timeout - queue.currentTime
                    let timer = Timer(
                        timeout: max(0.5, remaining), repeat: false,
                        completion: { disposable.set(signal.forwardAll(to: subscriber)) }, queue: queue)
                    disposable.set(ActionDisposable { timer.invalidate() })
                    timer.start()
                }
                if timeout <= granularity * 1.1 {
                    startFinalTimer()
                } else {
                    let timer = Timer(
                        timeout: granularity, repeat: true,
                        completion: { (timer: Timer) in
                            if begin + timeout - granularity * 1.1 <= queue.currentTime {
                                timer.invalidate()
                                startFinalTimer()
                            }
                        }, queue: queue)
                    disposable.set(ActionDisposable { timer.invalidate() })
                    timer.start()
                }
            }
            return disposable
        }
    }
}

/// Switches to `alternate` if the signal delivers no event within `timeout` seconds; any event stops the clock.
public func timeout<T, E>(_ timeout: Double, queue: Queue, alternate: Signal<T, E>) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            let disposable = MetaDisposable()
            let timer = Timer(
                timeout: timeout, repeat: false,
                completion: { disposable.set(alternate.forwardAll(to: subscriber)) }, queue: queue)
            disposable.set(
                signal.forward(
                    to: subscriber,
                    next: { next in
                        timer.invalidate()
                        subscriber.putNext(next)
                    },
                    error: { error in
                        timer.invalidate()
                        subscriber.putError(error)
                    },
                    completed: {
                        timer.invalidate()
                        subscriber.putCompletion()
                    }))
            timer.start()
            let set = DisposableSet()
            set.add(ActionDisposable { timer.invalidate() })
            set.add(disposable)
            return set
        }
    }
}

/// Delivers a value only after `interval` seconds pass without a newer one (on `queue`); completion first flushes
/// the waiting value. Not in Telegram, which used `delay` plus a `MetaDisposable` by hand.
public func debounce<T: Sendable, E: Sendable>(_ interval: Double, queue: Queue) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal<T, E> { subscriber in
            let pending = LockedValue<(value: T?, generation: Int)>.make((nil, 0))
            let timer = MetaDisposable()
            let flush: @Sendable (Int) -> Void = { generation in
                let value = pending.withLock { state -> T? in
                    guard state.generation == generation else { return nil }
                    let value = state.value
                    state.value = nil
                    return value
                }
                if let value { subscriber.putNext(value) }
            }
            let upstream = signal.forward(
                to: subscriber,
                next: { next in
                    let generation = pending.withLock { state -> Int in
                        state.value = next
                        state.generation += 1
                        return state.generation
                    }
                    timer.set(queue.schedule(after: interval) { flush(generation) })
                },
                error: { error in
                    timer.set(nil)
                    queue.async { subscriber.putError(error) }
                },
                completed: {
                    timer.set(nil)
                    queue.async {
                        let generation = pending.withLock { $0.generation }
                        flush(generation)
                        subscriber.putCompletion()
                    }
                })
            let set = DisposableSet()
            set.add(upstream)
            set.add(timer)
            return set
        }
    }
}
