import Dispatch
import SQLite
import Synchronization
import ValueBox

/// Copies Postbox's write-ahead log into the database file off the writer queue.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1,000 frames, on the writer's
/// thread: about a sixth of a commit's cost in a channel catch-up, paid while the next slices wait. Here the
/// writer's connection reports the log's size after each commit (`Database.onWALCommit`), and past
/// `backgroundFrames` a passive checkpoint runs on a queue of its own, on a reader connection, while the writer goes
/// on (sqlite.org/wal.html, "Application-Initiated Checkpoints": a checkpoint may run in another thread; a passive
/// one never blocks the writer or the readers). The log stays bounded: past `inlineFrames` — the background
/// checkpoint not keeping up, or readers holding old frames — the writer checkpoints in its own commit, as SQLite
/// would. Readers come from the pool, so a rekey waits for a running checkpoint as for any reader.
final class WALCheckpointer: Sendable {
    /// A background checkpoint starts once the log holds this many frames (SQLite's own automatic threshold).
    static let backgroundFrames = 1_000
    /// Past this many frames the writer checkpoints in its commit.
    static let inlineFrames = 10_000

    private let readers: ReaderPool
    private let open: @Sendable (Database.CipherKey?) throws -> SqliteValueBox
    private let queue = DispatchQueue(label: "org.telegraph.postbox.checkpoint", qos: .utility)
    private let scheduled = Mutex(false)
    /// Checkpoints run so far: in the background, and by the writer.
    private let runs = Mutex((background: 0, inline: 0))

    init(readers: ReaderPool, open: @escaping @Sendable (Database.CipherKey?) throws -> SqliteValueBox) {
        self.readers = readers
        self.open = open
    }

    /// On the writer's thread after a commit: what to do about a log of `frames` frames.
    func noteCommit(frames: Int, writer: Database) {
        if frames >= Self.inlineFrames {
            try? writer.checkpoint(.passive)
            runs.withLock { $0.inline += 1 }
            return
        }
        guard frames >= Self.backgroundFrames else { return }
        let start = scheduled.withLock { running -> Bool in
            defer { running = true }
            return !running
        }
        guard start else { return }
        queue.async { [self] in
            defer { scheduled.withLock { $0 = false } }
            guard let reader = try? readers.checkOut(open) else { return }
            defer { readers.checkIn(reader) }
            try? reader.valueBox.checkpoint()
            runs.withLock { $0.background += 1 }
        }
    }

    /// The checkpoints run so far: in the background, and by the writer.
    func counts() -> (background: Int, inline: Int) {
        runs.withLock { $0 }
    }

    /// Waits for a background checkpoint in progress (before a checkpoint the caller asked for).
    func waitForRunning() {
        queue.sync {}
    }
}
