import Foundation
public import MTProtoCore
public import NIOCore
import NIOPosix

/// Runs the expensive steps of auth-key exchanges — RSA decryption of `req_DH_params`, the DH exponentiations —
/// off the event loops, at most `workers` at once, with at most `maximumQueued` waiting. A step that finds the queue
/// full is refused at once (the connection then gets −429), so a flood of exchanges costs the server a bounded
/// amount of CPU and memory and never stalls the loops that serve established connections.
///
/// `@unchecked Sendable`: `queued` is read and written under `lock`; the thread pool is thread-safe.
public final class KeyExchangeWorkers: @unchecked Sendable {
    /// Why a step was not run.
    public enum Refusal: Error, Equatable {
        case queueFull
    }

    private let pool: NIOThreadPool
    private let lock = NSLock()
    private var queued = 0
    public let maximumQueued: Int

    public init(workers: Int, maximumQueued: Int) {
        pool = NIOThreadPool(numberOfThreads: max(1, workers))
        pool.start()
        self.maximumQueued = max(1, maximumQueued)
    }

    /// Runs one exchange step on a worker; the future completes on `eventLoop` with the exchange as it stands after
    /// the step, and the step (or its error). When the step completes the exchange, `store` runs on the worker too
    /// (it writes the key file), and its error fails the step.
    public func run(
        _ exchange: AuthKeyServerExchange, body: [UInt8], now: Double, on eventLoop: any EventLoop,
        store: @escaping @Sendable (AuthKeyExchangeResult) throws -> Void
    ) -> EventLoopFuture<(AuthKeyServerExchange, Result<AuthKeyServerExchange.Step, any Error>)> {
        submit(on: eventLoop) {
            var exchange = exchange
            let step = Result<AuthKeyServerExchange.Step, any Error> {
                let step = try exchange.receive(body, now: now)
                if case .completed(let result, _) = step { try store(result) }
                return step
            }
            return (exchange, step)
        }
    }

    /// Runs `work` on a worker, or fails at once with `Refusal.queueFull` when `maximumQueued` pieces of work are
    /// already waiting or running.
    public func submit<T: Sendable>(
        on eventLoop: any EventLoop, _ work: @escaping @Sendable () -> T
    ) -> EventLoopFuture<T> {
        lock.lock()
        guard queued < maximumQueued else {
            lock.unlock()
            return eventLoop.makeFailedFuture(Refusal.queueFull)
        }
        queued += 1
        lock.unlock()
        let future = pool.runIfActive(eventLoop: eventLoop, work)
        future.whenComplete { [self] _ in
            lock.lock()
            queued -= 1
            lock.unlock()
        }
        return future
    }

    /// Steps waiting or running.
    public var pending: Int {
        lock.lock()
        defer { lock.unlock() }
        return queued
    }

    /// Stops the workers (after the steps in hand).
    public func shutdown() async throws {
        try await pool.shutdownGracefully()
    }
}
