import Foundation
import Synchronization

/// What ends a watch, awaited rather than polled: SIGINT (the accounts shut down, exit 0), the reader finishing (its
/// --count reached), or --for's seconds passing.
///
/// SIGINT reaches it by the self-pipe trick: the handler, installed synchronously before the watch says it listens
/// (so no early SIGINT is lost), only writes a byte to a pipe — `write(2)` is async-signal-safe — and a dispatch read
/// source on the pipe's other end ends the wait.
///
/// `@unchecked Sendable`: the stream's continuation is thread-safe; the read source is only touched in `init`.
final class WatchEnd: @unchecked Sendable {
    private let ends: AsyncStream<Void>
    private let end: AsyncStream<Void>.Continuation
    private let source: (any DispatchSourceRead)?
    private let timer: Task<Void, Never>?

    /// The write end of the SIGINT pipe, read by the handler (which may touch nothing but async-signal-safe state).
    private static let interruptPipe = Atomic<Int32>(-1)

    /// Listens for SIGINT and, with `seconds`, for the time to pass.
    init(seconds: Double?) {
        let (ends, end) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.ends = ends
        self.end = end
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            let source = DispatchSource.makeReadSource(fileDescriptor: fds[0], queue: .global())
            source.setEventHandler { [end] in end.yield() }
            source.resume()
            self.source = source
            Self.interruptPipe.store(fds[1], ordering: .relaxed)
            signal(SIGINT) { _ in
                var byte: UInt8 = 1
                _ = write(WatchEnd.interruptPipe.load(ordering: .relaxed), &byte, 1)
            }
        } else {
            source = nil
        }
        timer = seconds.map { seconds in
            Task { [end] in
                try? await Task.sleep(for: .seconds(seconds))
                end.yield()
            }
        }
    }

    deinit {
        timer?.cancel()
        source?.cancel()
    }

    /// Ends the wait (the reader finished).
    func finish() { end.yield() }

    /// Returns when SIGINT came, `finish()` was called or the time passed.
    func wait() async {
        var iterator = ends.makeAsyncIterator()
        _ = await iterator.next()
    }
}
