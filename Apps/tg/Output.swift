import CommandLineOutput
import Foundation
import TelegramClient
import TelegramCore

/// Printing results: JSON with sorted keys, or lines of text.
enum Output {
    static func json<T: Encodable>(_ value: T, pretty: Bool = true) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        print(String(decoding: data, as: UTF8.self))
    }

    /// Flushes standard output (watch prints as messages arrive).
    static func flush() { fflush(nil) }
}

/// A progress bar for one transfer on standard error, shown only when it is a terminal (CommandLineOutput's
/// `ProgressLine`); fractions come from any thread. `@unchecked Sendable`: the `ProgressLine` (used from one thread
/// at a time) and `finished` are used only under `lock`.
final class TransferProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let line: ProgressLine
    private let name: String
    private var finished = false

    init(_ name: String) {
        self.name = name
        line = ProgressLine(tool: "tg", total: 100)
    }

    func update(_ fraction: Double) {
        lock.withLock { if !finished { line.update(done: Int((fraction * 100).rounded()), current: name) } }
    }

    func finish() {
        lock.withLock {
            if !finished { line.finish() }
            finished = true
        }
    }
}
