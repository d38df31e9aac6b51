import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal in raw mode (termios: no echo, no line editing, no signals from keys, no flow control) on the
/// alternate screen, restored on every way out: `restore()`, process exit (`atexit`), and SIGINT, SIGTERM and SIGHUP
/// (their handlers only set a flag the input loop reads; the loop ends and the caller restores). SIGWINCH sets a flag
/// too. One per process. `@unchecked Sendable`: the saved settings are written once before any reader exists and
/// read under `lock`.
public final class RawTerminal: @unchecked Sendable {
    nonisolated(unsafe) private static var saved = termios()
    private static let active = Atomic<Bool>(false)
    private static let resized = Atomic<Bool>(false)
    private static let terminated = Atomic<Int32>(0)
    private let lock = NSLock()

    /// Whether standard input and output are both terminals.
    public static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// Puts the terminal in raw mode on the alternate screen; nil when standard input or output is not a terminal.
    public init?() {
        guard Self.isInteractive, !Self.active.load(ordering: .acquiring) else { return nil }
        var settings = termios()
        guard tcgetattr(0, &settings) == 0 else { return nil }
        Self.saved = settings
        settings.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        settings.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | ISTRIP | BRKINT)
        settings.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(0, TCSAFLUSH, &settings) == 0 else { return nil }
        Self.active.store(true, ordering: .releasing)
        atexit { RawTerminal.restoreSaved() }
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { received in RawTerminal.terminated.store(received, ordering: .relaxed) }
        }
        signal(SIGWINCH) { _ in RawTerminal.resized.store(true, ordering: .relaxed) }
        Self.write("\u{1B}[?1049h\u{1B}[H\u{1B}[2J")
    }

    /// Columns and rows (80×24 if the terminal does not say).
    public var size: (width: Int, height: Int) {
        var window = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// True once after each SIGWINCH.
    public func takeResize() -> Bool { Self.resized.exchange(false, ordering: .relaxed) }

    /// The terminating signal received (SIGINT, SIGTERM, SIGHUP), or 0.
    public var terminatingSignal: Int32 { Self.terminated.load(ordering: .relaxed) }

    /// Bytes typed within `timeout` seconds (empty if none); nil when standard input is closed.
    public func read(timeout: Double) -> [UInt8]? {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(timeout * 1000))
        guard ready > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
        if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return nil }
        return count > 0 ? Array(buffer[0..<count]) : []
    }

    /// Draws `screen`: every line from the top, then the cursor.
    public func draw(_ screen: ChatTerminalScreen) {
        var frame = "\u{1B}[?25l\u{1B}[H"
        for (index, line) in screen.lines.enumerated() {
            frame += line + "\u{1B}[0m\u{1B}[K"
            if index < screen.lines.count - 1 { frame += "\r\n" }
        }
        frame += "\u{1B}[\(screen.cursorRow + 1);\(screen.cursorColumn + 1)H\u{1B}[?25h"
        lock.withLock { Self.write(frame) }
    }

    /// Leaves raw mode and the alternate screen (again is harmless).
    public func restore() { Self.restoreSaved() }

    private static func restoreSaved() {
        guard active.exchange(false, ordering: .acquiringAndReleasing) else { return }
        write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        var settings = saved
        tcsetattr(0, TCSAFLUSH, &settings)
    }

    private static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
