import Foundation

extension ClientError {
    /// What a wait for `what` ends with when `timeout` seconds pass first.
    static func timedOut(_ what: String, after timeout: Double) -> ClientError {
        .unreachable("\(what) did not happen within \(Int(timeout)) s — check that the server is running")
    }

    /// What a wait for `what` ends with when its task is cancelled first.
    static func cancelled(_ what: String) -> ClientError {
        .unreachable("waiting for \(what) was cancelled")
    }
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
