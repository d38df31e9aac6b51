public import NIOCore

/// A `TaskExecutor` that runs tasks on one NIO event loop.
///
/// A task that prefers it (`withTaskExecutorPreference(network.taskExecutor) { … }`, SE-0417) runs its non-isolated
/// code on the loop that also runs its sessions: a call queues its message without a hop to another thread, and an
/// answer resumes the waiting task on the same thread instead of waking a thread of the global pool. That is how
/// Telethon's calls share its asyncio loop, and how Telegram-iOS runs an `MTContext`'s work on one queue. Work that
/// blocks or computes for long belongs elsewhere: while it runs, the sessions on this loop wait. The loop's group must
/// outlive every task that prefers this executor: a job enqueued on a loop that has shut down never runs.
public final class EventLoopTaskExecutor: TaskExecutor {
    /// The loop the tasks run on.
    public let loop: any EventLoop

    /// An executor for `loop`.
    public init(_ loop: any EventLoop) {
        self.loop = loop
    }

    /// Runs `job` on the loop (queued behind what the loop already has; from the loop itself, without waking it).
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
