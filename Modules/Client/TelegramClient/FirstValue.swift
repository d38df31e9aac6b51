import Dispatch
import SwiftSignalKit

/// The first result `transform` gives for a value of `signal`: the waiting task is resumed by that value
/// itself (nothing is polled). `transform` runs on the queue the signal delivers on, for each value until one is
/// taken; an error it throws ends the wait with that error. After `timeout` seconds the wait ends with `timedOut`
/// (by default `.unreachable("what did not happen within N s …")`), and when the waiting task is cancelled, with
/// `.unreachable("waiting for what was cancelled")`. The subscription is disposed on every way out. A signal that
/// completes without a value leaves the wait to its timeout.
func firstResult<T, R: Sendable>(
    _ what: String, of signal: Signal<T, NoError>, timeout: Double, timedOut: ClientError? = nil,
    _ transform: @escaping @Sendable (T) throws(ClientError) -> R?
) async throws(ClientError) -> R {
    let wait = SignalWait<R>()
    let subscription = MetaDisposable()
    let timer = DispatchWorkItem { wait.finish(.failure(timedOut ?? .timedOut(what, after: timeout))) }
    defer {
        timer.cancel()
        subscription.dispose()
    }
    let outcome = await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Result<R, ClientError>, Never>) in
            guard wait.install(continuation) else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
            subscription.set(
                signal.start(next: { value in
                    guard !wait.isFinished else { return }
                    do throws(ClientError) {
                        if let result = try transform(value) { wait.finish(.success(result)) }
                    } catch {
                        wait.finish(.failure(error))
                    }
                }))
        }
    } onCancel: {
        wait.finish(.failure(.cancelled(what)))
    }
    return try outcome.get()
}

/// The first value of `signal` that `accept` takes, waited for as `firstResult` waits.
func firstValue<T: Sendable>(
    _ what: String, of signal: Signal<T, NoError>, timeout: Double, timedOut: ClientError? = nil,
    where accept: @escaping @Sendable (T) -> Bool
) async throws(ClientError) -> T {
    try await firstResult(what, of: signal, timeout: timeout, timedOut: timedOut) { accept($0) ? $0 : nil }
}

/// One wait's outcome, set once — by a value, an error, the timer or cancellation, whichever comes first — and the
/// continuation it resumes. `@unchecked Sendable`: both are read and written under `state`'s lock.
private final class SignalWait<R: Sendable>: @unchecked Sendable {
    typealias Continuation = CheckedContinuation<Result<R, ClientError>, Never>
    private let state = LockedValue<(continuation: Continuation?, outcome: Result<R, ClientError>?)>((nil, nil))

    /// Whether the outcome is set.
    var isFinished: Bool { state.withLock { $0.outcome != nil } }

    /// Keeps `continuation` for the outcome; resumes it at once and returns false when the outcome is already set
    /// (the task was cancelled before it began to wait).
    func install(_ continuation: Continuation) -> Bool {
        let outcome = state.withLock { state -> Result<R, ClientError>? in
            if state.outcome == nil { state.continuation = continuation }
            return state.outcome
        }
        guard let outcome else { return true }
        continuation.resume(returning: outcome)
        return false
    }

    /// Sets the outcome unless one is set, and resumes the waiting task with it.
    func finish(_ outcome: Result<R, ClientError>) {
        let continuation = state.withLock { state -> Continuation? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: outcome)
    }
}
