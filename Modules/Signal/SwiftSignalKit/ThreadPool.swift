import Glibc

/// The cancellation flag a `ThreadPoolTask` sees while it runs.
public final class ThreadPoolTaskState: Sendable {
    /// Set when the task is cancelled; long tasks poll it.
    public let cancelled = Atomic<Bool>(value: false)
}

/// One unit of work for a `ThreadPool`.
public final class ThreadPoolTask: Sendable {
    private let state = ThreadPoolTaskState()
    private let action: @Sendable (ThreadPoolTaskState) -> Void

    /// A task that runs `action` unless cancelled first.
    public init(_ action: @escaping @Sendable (ThreadPoolTaskState) -> Void) {
        self.action = action
    }

    func execute() {
        if !state.cancelled.with({ $0 }) {
            action(state)
        }
    }

    /// Marks the task cancelled: it will not start, and a running action can see the flag.
    public func cancel() {
        state.cancelled.swap(true)
    }
}

/// A serial lane of a `ThreadPool`: its tasks run one at a time, in order, on whichever pool thread is free.
public final class ThreadPoolQueue: Sendable {
    private weak let pool: ThreadPool?
    let tasks = LockedValue<[ThreadPoolTask]>.make([])

    init(pool: ThreadPool) {
        self.pool = pool
    }

    /// Appends a task to this lane.
    public func addTask(_ task: ThreadPoolTask) {
        pool?.workOnQueue(self, task)
    }
}

/// A fixed set of pthreads taking tasks from serial lanes round-robin (Telegram's `ThreadPool`, without the
/// Objective-C runtime).
public final class ThreadPool: @unchecked Sendable {
    // @unchecked Sendable: `mutex`/`condition` are pthread objects guarding `queues`, `takenQueues` and `stopping`;
    // they are allocated once and freed only in deinit, which runs after every thread has left its loop.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queues: [ThreadPoolQueue] = []
    private var takenQueues: Set<ObjectIdentifier> = []
    private var stopping = false
    private var threads: [pthread_t] = []
    private let poolKey = ThreadPoolKey()

    /// Starts `threadCount` threads (`threadPriority` is accepted for API parity; Linux threads run at default).
    public init(threadCount: Int, threadPriority: Double) {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        for _ in 0..<max(1, threadCount) {
            let context = Unmanaged.passRetained(ThreadContext(pool: self)).toOpaque()
            var thread = pthread_t()
            let result = pthread_create(
                &thread, nil,
                { raw in
                    let context = Unmanaged<ThreadContext>.fromOpaque(raw!).takeRetainedValue()
                    context.run()
                    return nil
                }, context)
            precondition(result == 0, "pthread_create failed: \(result)")
            pthread_detach(thread)
            threads.append(thread)
        }
    }

    /// Stops the threads once their current task ends.
    public func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// A new serial lane.
    public func nextQueue() -> ThreadPoolQueue {
        ThreadPoolQueue(pool: self)
    }

    /// Runs `task` on its own lane.
    public func addTask(_ task: ThreadPoolTask) {
        nextQueue().addTask(task)
    }

    /// Whether the caller is one of this pool's threads.
    public func isCurrentThreadInPool() -> Bool {
        ThreadPoolKey.current === poolKey
    }

    fileprivate func workOnQueue(_ queue: ThreadPoolQueue, _ task: ThreadPoolTask) {
        pthread_mutex_lock(mutex)
        let wasEmpty = queue.tasks.withLock { tasks -> Bool in
            tasks.append(task)
            return tasks.count == 1
        }
        if wasEmpty && !takenQueues.contains(ObjectIdentifier(queue)) {
            queues.append(queue)
        }
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    fileprivate func threadLoop() {
        ThreadPoolKey.current = poolKey
        pthread_mutex_lock(mutex)
        while true {
            while queues.isEmpty && !stopping {
                pthread_cond_wait(condition, mutex)
            }
            if stopping { break }
            let queue = queues.removeFirst()
            takenQueues.insert(ObjectIdentifier(queue))
            let task = queue.tasks.withLock { $0.first }
            pthread_mutex_unlock(mutex)
            task?.execute()
            pthread_mutex_lock(mutex)
            takenQueues.remove(ObjectIdentifier(queue))
            let more = queue.tasks.withLock { tasks -> Bool in
                if !tasks.isEmpty { tasks.removeFirst() }
                return !tasks.isEmpty
            }
            if more {
                queues.append(queue)
                pthread_cond_signal(condition)
            }
        }
        pthread_mutex_unlock(mutex)
    }

    deinit {
        // Threads hold the pool strongly while running, so deinit runs only after they exited or never started.
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }
}

/// Identifies the pool that owns the current thread.
final class ThreadPoolKey: Sendable {
    static let storage = ThreadLocalPointer()

    static var current: ThreadPoolKey? {
        get { storage.get() }
        set { storage.set(newValue) }
    }
}

/// A pthread-specific slot holding an unretained `ThreadPoolKey` (the key lives as long as its pool).
struct ThreadLocalPointer {
    private let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    func get() -> ThreadPoolKey? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<ThreadPoolKey>.fromOpaque(raw).takeUnretainedValue()
    }

    func set(_ value: ThreadPoolKey?) {
        pthread_setspecific(key, value.map { Unmanaged.passUnretained($0).toOpaque() })
    }
}

/// What a pool thread runs; holds the pool until the thread exits.
private final class ThreadContext {
    let pool: ThreadPool
    init(pool: ThreadPool) { self.pool = pool }
    func run() { pool.threadLoop() }
}
