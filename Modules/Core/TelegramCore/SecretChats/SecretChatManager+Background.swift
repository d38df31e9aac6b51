// The outbox flushes the account starts without waiting for them (on start, after an update), and their end when
// the account shuts down.

import Synchronization

extension SecretChatManager {
    /// Flushes `chatId`'s outbox (every chat's when nil) in a task of its own, unless the account has shut down; the
    /// task is kept until it ends, so that `stopFlushing` can end it before the network closes.
    public func flushInBackground(chatId: Int32? = nil) {
        background.withLock { state in
            guard !state.stopped else { return }
            let key = state.next
            state.next += 1
            // Made under the lock: the task's own removal waits until it is recorded.
            state.tasks[key] = Task.detached(executorPreference: taskExecutor) { [weak self] in
                if let chatId { await self?.flush(chatId: chatId) } else { await self?.flushAll() }
                _ = self?.background.withLock { $0.tasks.removeValue(forKey: key) }
            }
        }
    }

    /// Ends the flushes running in the background and starts no more until `resumeFlushing`: an account shutting
    /// down calls it before it closes its network, so that no flush asks for a connection afterwards (`tg` crashed
    /// at exit when one opened a connection on an event loop group already shut down).
    public func stopFlushing() async {
        let running = background.withLock { state -> [Task<Void, Never>] in
            state.stopped = true
            defer { state.tasks = [:] }
            return Array(state.tasks.values)
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    /// Lets `flushInBackground` start flushes again (the account starts).
    public func resumeFlushing() {
        background.withLock { $0.stopped = false }
    }

    /// Whether the account has shut down (a flush stops before its next request).
    var flushingStopped: Bool { background.withLock { $0.stopped } }
}

/// The background flushes of a `SecretChatManager`.
struct SecretChatBackgroundFlushes {
    var tasks: [Int: Task<Void, Never>] = [:]
    var next = 0
    var stopped = false
}
