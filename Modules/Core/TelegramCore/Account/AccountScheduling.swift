public import SwiftSignalKit

/// Where an account's managers run their work and how they wait: `live` (serial Dispatch queues, the Postbox's own
/// writer queue, Swift's default concurrent executor and `Task.sleep` on the machine's clock) in the product; a
/// simulation passes queues, a task executor and a sleep of its own, so that the state manager's gap wait and retries,
/// the pending queue's retries, the action queue's retry delay and the secret chats' timers fire when the simulation
/// says time has passed, and the managers' Swift tasks and the Postbox's writer run where the simulation runs their
/// queues. The clock dates are read from is `Account.clock`.
public struct AccountScheduling: Sendable {
    /// Makes a manager's serial queue (the state manager's and the pending-message manager's), named for it.
    public var makeQueue: @Sendable (_ name: String) -> Queue
    /// Waits `seconds`; throws `CancellationError` if the task is cancelled first (as `Task.sleep` does).
    public var sleep: @Sendable (_ seconds: Double) async throws -> Void
    /// The executor the managers' own Swift tasks prefer (`Task(executorPreference:)`: a send, the action loop, the
    /// update stream, the state manager's calls, the secret chats' flushes and timers, the contact sync, the history
    /// and chat-list fetchers, a download of `MediaFetcher(account:)`); their child tasks inherit it. Nil: Swift's
    /// default concurrent executor, except for the update stream and the state manager's calls, which then prefer the
    /// network's `callExecutor` (`AccountNetwork`: its event loop).
    public var taskExecutor: (any TaskExecutor)?
    /// Makes the serial queue an account's Postbox runs its write transactions on (`Postbox.open(writerQueue:)`),
    /// named for it. Nil: the Postbox makes a Dispatch queue of its own.
    public var makeWriterQueue: (@Sendable (_ name: String) -> Queue)?

    public init(
        makeQueue: @escaping @Sendable (_ name: String) -> Queue,
        sleep: @escaping @Sendable (_ seconds: Double) async throws -> Void,
        taskExecutor: (any TaskExecutor)? = nil, makeWriterQueue: (@Sendable (_ name: String) -> Queue)? = nil
    ) {
        self.makeQueue = makeQueue
        self.sleep = sleep
        self.taskExecutor = taskExecutor
        self.makeWriterQueue = makeWriterQueue
    }

    /// Real queues, Swift's default executor and the machine's clock: what the product runs on.
    public static let live = AccountScheduling(
        makeQueue: { Queue(name: $0) },
        sleep: { seconds in try await Task.sleep(for: .seconds(max(0, seconds))) })
}
