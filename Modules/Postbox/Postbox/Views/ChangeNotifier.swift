import Dispatch
import Glibc
import Synchronization

/// The cross-process wake-up (Telegram-iOS Postbox `IpcPipe` on iOS): after each committed write a Postbox writes its
/// instance token and the new transaction-state version into `<postbox>/db/ipc-notify`; every process with open views
/// watches that file with inotify and, on a change written by another instance, asks the Postbox to check the
/// metadata counter. Nothing polls: the watcher sleeps in the kernel until a write happens.
///
/// `@unchecked Sendable`: `fd` and `instance` are immutable after init; the watch source lives in a mutex.
final class ChangeNotifier: @unchecked Sendable {
    let path: String
    /// A random token naming this Postbox instance, so it ignores its own writes (two instances in one process
    /// still see each other).
    let instance: UInt64
    private let fd: Int32
    private let source = Mutex<DispatchSourceRead?>(nil)

    init(path: String) {
        self.path = path
        instance = UInt64.random(in: 1...UInt64.max)
        fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    }

    deinit {
        stop()
        if fd >= 0 { close(fd) }
    }

    /// Records a committed write (best effort: a failure only delays other processes until their next transaction).
    func post(version: Int64) {
        guard fd >= 0 else { return }
        var record: (UInt64, Int64) = (instance, version)
        _ = withUnsafeBytes(of: &record) { pwrite(fd, $0.baseAddress, 16, 0) }
    }

    /// The last record written by any instance.
    private func read() -> (instance: UInt64, version: Int64)? {
        guard fd >= 0 else { return nil }
        var record: (UInt64, Int64) = (0, 0)
        let count = withUnsafeMutableBytes(of: &record) { pread(fd, $0.baseAddress, 16, 0) }
        return count == 16 ? (record.0, record.1) : nil
    }

    /// Starts watching (idempotent): `handler` runs on `queue` after another instance wrote.
    /// Returns false when inotify is unavailable; views then catch up at this process's next transaction.
    @discardableResult
    func start(on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) -> Bool {
        source.withLock { current in
            if current != nil { return true }
            let watchFd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard watchFd >= 0 else { return false }
            guard inotify_add_watch(watchFd, path, UInt32(IN_MODIFY)) >= 0 else {
                close(watchFd)
                return false
            }
            let source = DispatchSource.makeReadSource(fileDescriptor: watchFd, queue: queue)
            source.setEventHandler { [weak self] in
                // Drain the queued events; one check covers them all.
                var buffer = [UInt8](repeating: 0, count: 4096)
                while buffer.withUnsafeMutableBytes({ Glibc.read(watchFd, $0.baseAddress, $0.count) }) > 0 {}
                guard let self, let record = self.read(), record.instance != self.instance else { return }
                handler()
            }
            source.setCancelHandler { close(watchFd) }
            source.resume()
            current = source
            return true
        }
    }

    /// Stops watching (idempotent).
    func stop() {
        let current = source.withLock { current in
            defer { current = nil }
            return current
        }
        current?.cancel()
    }
}
