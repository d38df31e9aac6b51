public import Foundation

/// Runs blocking work (waiting for a child process, a long synchronous loop) on a thread of its own and awaits it,
/// so an async test never holds one of Swift's cooperative threads while it waits. The cooperative pool has one
/// thread per core; on a 2-core machine two tests blocking them stall every other async test (and the deadlines
/// those tests check) for as long as they block.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// `offPool` for work that cannot fail.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

extension ProcessRunner {
    /// `run`, awaited without holding a cooperative thread (see `offPool`).
    public static func runOffPool(
        _ executable: URL, _ arguments: [String] = [], environment: [String: String?] = [:], timeout: Double = 120
    ) async throws -> Result {
        try await offPool { try run(executable, arguments, environment: environment, timeout: timeout) }
    }
}

extension RunningProcess {
    /// `waitForOutput`, awaited without holding a cooperative thread.
    public func waitForOutputOffPool(timeout: Double, until condition: @escaping @Sendable (Data) -> Bool) async -> Bool
    {
        await offPool { self.waitForOutput(timeout: timeout, until: condition) }
    }

    /// `wait`, awaited without holding a cooperative thread.
    public func waitOffPool(timeout: Double = 120) async -> ProcessRunner.Result {
        await offPool { self.wait(timeout: timeout) }
    }
}
