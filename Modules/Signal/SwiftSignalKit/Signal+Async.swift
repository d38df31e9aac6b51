/// Thrown by the async bridges when a signal fails with an error that is not itself an `Error`.
public struct SignalError<E: Sendable>: Error {
    /// The signal's error.
    public let error: E
}

/// Thrown by `Signal.get()` when the signal completes without delivering a value.
public struct SignalCompletedWithoutValue: Error, Equatable {
    /// The error value.
    public init() {}
}

extension Signal where T: Sendable, E: Sendable {
    /// The values as an async sequence; a signal error is thrown (as itself if it is an `Error`, else wrapped in
    /// `SignalError`). Ending the iteration or cancelling the task disposes the subscription.
    public var values: AsyncThrowingStream<T, any Error> {
        AsyncThrowingStream { continuation in
            let disposable = self.start(
                next: { continuation.yield($0) },
                error: { continuation.finish(throwing: asError($0)) },
                completed: { continuation.finish() })
            continuation.onTermination = { _ in disposable.dispose() }
        }
    }

    /// The first value; the subscription is disposed as soon as it arrives (or when the task is cancelled).
    ///
    /// Telegram's `get()` exists only for `NoError` and never returns for an empty signal; this one throws
    /// `SignalCompletedWithoutValue`, the signal's error, or `CancellationError`.
    public func get() async throws -> T {
        let box = LockedValue<
            (continuation: CheckedContinuation<T, any Error>?, disposable: Disposable?, cancelled: Bool)
        >.make(
            (nil, nil, false))
        let finish: @Sendable (Result<T, any Error>) -> Void = { result in
            let (continuation, disposable) = box.withLock { state in
                let taken = (state.continuation, state.disposable)
                state.continuation = nil
                state.disposable = nil
                return taken
            }
            disposable?.dispose()
            continuation?.resume(with: result)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let cancelled = box.withLock { state -> Bool in
                    state.continuation = continuation
                    return state.cancelled
                }
                if cancelled {
                    finish(.failure(CancellationError()))
                    return
                }
                let disposable = self.start(
                    next: { finish(.success($0)) }, error: { finish(.failure(asError($0))) },
                    completed: { finish(.failure(SignalCompletedWithoutValue())) })
                let stillWaiting = box.withLock { state -> Bool in
                    if state.continuation == nil { return false }
                    state.disposable = disposable
                    return true
                }
                if !stillWaiting { disposable.dispose() }
            }
        } onCancel: {
            let waiting = box.withLock { state -> Bool in
                state.cancelled = true
                return state.continuation != nil
            }
            if waiting { finish(.failure(CancellationError())) }
        }
    }
}

extension Signal where T: Sendable, E: Error {
    /// A signal that runs `operation` in a task on each subscription: its result is delivered and the signal
    /// completes, or its error fails the signal. Disposing cancels the task. The task prefers `executorPreference`
    /// (nil: the default concurrent executor).
    public convenience init(
        executorPreference: (any TaskExecutor)? = nil, operation: @escaping @Sendable () async throws(E) -> T
    ) {
        self.init { subscriber in
            let task = Task(executorPreference: executorPreference) {
                do throws(E) {
                    let value = try await operation()
                    subscriber.putNext(value)
                    subscriber.putCompletion()
                } catch {
                    subscriber.putError(error)
                }
            }
            return ActionDisposable { task.cancel() }
        }
    }
}

extension Signal where T: Sendable, E == NoError {
    /// A signal that runs a non-throwing `operation` in a task on each subscription; disposing cancels the task. The
    /// task prefers `executorPreference` (nil: the default concurrent executor).
    public convenience init(
        executorPreference: (any TaskExecutor)? = nil, operation: @escaping @Sendable () async -> T
    ) {
        self.init { subscriber in
            let task = Task(executorPreference: executorPreference) {
                let value = await operation()
                subscriber.putNext(value)
                subscriber.putCompletion()
            }
            return ActionDisposable { task.cancel() }
        }
    }
}

private func asError<E: Sendable>(_ error: E) -> any Error {
    (error as? any Error) ?? SignalError(error: error)
}
