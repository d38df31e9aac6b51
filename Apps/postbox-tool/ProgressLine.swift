import Foundation

/// A one-line progress display on standard error, drawn only when standard error is a terminal.
final class ProgressLine: @unchecked Sendable {
    /// `@unchecked Sendable`: the tool is single-threaded; the shared instance is only used from the main thread.
    static let shared = ProgressLine()

    private let enabled = isatty(2) != 0
    private var lastDraw = 0.0

    /// Draws "label [#####-----] 42%".
    func show(_ label: String, fraction: Double) {
        draw("\(label) \(bar(fraction)) \(Int(fraction * 100))%", final: fraction >= 1)
    }

    /// Draws "label: N items (rate/s)" for work of unknown size.
    func show(_ label: String, count: Int, rate: Double) {
        draw("\(label): \(count) (\(Int(rate))/s)", final: false)
    }

    /// Ends the line.
    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private func bar(_ fraction: Double) -> String {
        let filled = max(0, min(30, Int(fraction * 30)))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled) + "]"
    }

    private func draw(_ text: String, final: Bool) {
        guard enabled else { return }
        let now = Date().timeIntervalSince1970
        guard final || now - lastDraw > 0.1 else { return }
        lastDraw = now
        FileHandle.standardError.write(Data(("\r\u{1b}[K" + text).utf8))
    }
}
