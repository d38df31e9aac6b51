import Foundation
import SwiftSignalKit

/// Polls `condition` every 20 ms until it gives a value; `.unreachable(what …)` after `timeout` seconds. The wait is
/// `Task.sleep`, so no thread is held while it waits.
func poll<T>(_ what: String, timeout: Double, _ condition: () throws(ClientError) -> T?) async throws(ClientError) -> T
{
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if let value = try condition() { return value }
        guard Date() < deadline else {
            throw .unreachable("\(what) did not happen within \(Int(timeout)) s — check that the server is running")
        }
        try? await Task.sleep(for: .milliseconds(20))
    }
}

/// The first value of `signal` that `accept` takes, within `timeout` seconds (the subscription is disposed after).
func firstValue<T: Sendable>(
    _ what: String, of signal: Signal<T, NoError>, timeout: Double, where accept: @escaping @Sendable (T) -> Bool
) async throws(ClientError) -> T {
    let latest = LockedValue<T?>(nil)
    let disposable = signal.start(next: { value in if accept(value) { latest.withLock { $0 = value } } })
    defer { disposable.dispose() }
    return try await poll(what, timeout: timeout) { latest.withLock { $0 } }
}

/// `body`'s value, or `.unreachable(what …)` once `timeout` seconds pass first (`body` is cancelled then).
func withDeadline<T: Sendable>(
    _ what: String, timeout: Double, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(timeout))
            throw ClientError.unreachable(
                "\(what) did not finish within \(Int(timeout)) s — check that the server is running")
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw CancellationError() }
        return first
    }
}
