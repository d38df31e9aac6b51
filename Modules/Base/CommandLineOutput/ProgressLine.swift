#if canImport(Glibc)
    import Glibc
#endif

/// A tool's progress on standard error, `[#####-----] 3/10 name`: redrawn in place on a terminal, or written as
/// plain lines (`<tool>: 3/10 name`) when asked for and standard error is not a terminal, or not at all. Updates
/// closer together than `interval` seconds are dropped, except the last one (`finish`).
///
/// Used from one thread at a time.
public final class ProgressLine {
    /// When progress is shown.
    public enum Mode: Sendable {
        /// Only when standard error is a terminal.
        case automatic
        /// Always: redrawn on a terminal, plain lines otherwise (a `--progress` flag).
        case always
        /// Never.
        case never
    }

    public let total: Int
    private let tool: String
    private let inPlace: Bool
    private let enabled: Bool
    private let interval: Double
    private let clock: () -> Double
    private let write: (String) -> Void
    private var lastShown: Double?
    private var pending: (done: Int, current: String)?

    /// Progress over `total` steps of `tool`. `isTerminal`, `clock` (seconds) and `write` (text without a newline)
    /// default to standard error and the monotonic clock; tests replace them.
    public init(
        tool: String, total: Int, mode: Mode = .automatic, interval: Double = 0.1,
        isTerminal: Bool = ToolOutput.standardErrorIsTerminal, clock: @escaping () -> Double = ProgressLine.now,
        write: @escaping (String) -> Void = { ToolOutput.standardError($0, terminator: "") }
    ) {
        self.tool = tool
        self.total = total
        self.inPlace = isTerminal
        self.enabled = mode == .always || (mode == .automatic && isTerminal)
        self.interval = interval
        self.clock = clock
        self.write = write
    }

    /// `done` of `total` steps are finished; `current` names the one under way.
    public func update(done: Int, current: String = "") {
        guard enabled else { return }
        let now = clock()
        if let lastShown, now - lastShown < interval {
            pending = (done, current)
            return
        }
        show(done: done, current: current)
        lastShown = now
        pending = nil
    }

    /// Shows the final state (`done`, or the last update) and ends the line.
    public func finish(done: Int? = nil) {
        guard enabled else { return }
        if let done {
            show(done: done, current: "")
        } else if let pending {
            show(done: pending.done, current: pending.current)
        }
        pending = nil
        if inPlace { write("\n") }
    }

    private func show(done: Int, current: String) {
        let name = current.isEmpty ? "" : " \(current.prefix(40))"
        if inPlace {
            let width = 30
            let filled = total <= 0 ? width : min(width, max(0, done) * width / total)
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            write("\r[\(bar)] \(done)/\(total)\(name)\u{1B}[K")
        } else {
            write("\(tool): \(done)/\(total)\(name)\n")
        }
    }

    /// Seconds on the monotonic clock.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
