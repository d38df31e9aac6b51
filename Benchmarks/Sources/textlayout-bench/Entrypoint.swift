import BenchmarkSupport
import TextLayout

/// `TextLayout.layout` over a 44-message window of mixed text against Pango called directly on the same strings
/// (`PangoPeer`), on one thread, in interleaved rounds (BENCHMARKS.md "Method"): both sides return every message's
/// line count and height, which must be equal.
@main
enum TextLayoutBench {
    /// Windows laid out per timed run.
    static let repeats = 20

    static func main() {
        checkCommandLine(
            """
            usage: textlayout-bench

            TextLayout.layout over a 44-message window against Pango called directly on the same strings (same line counts
            and heights checked first).
            """)
        printMachine()
        let windows = Double(repeats)
        // What each side produced: every message's line count and height (in Pango units), from the window's last
        // pass; both must be equal on the warm-up and on every round.
        let row = compareInterleaved(
            "44-message window (mixed scripts, entities)", items: windows, unit: "windows", rounds: 9,
            goal: "≥ 0.9×",
            ours: { () -> [Int] in
                var shape: [Int] = []
                for pass in 0..<repeats {
                    for (text, entities) in Window.messages {
                        let layout = TextLayout.layout(text, entities: entities, width: Window.width)
                        if pass == repeats - 1 { shape += [layout.lineCount, Int(layout.bounds.height * 1024)] }
                        blackHole(layout)
                    }
                }
                return shape
            },
            peer: { () -> [Int] in
                var shape: [Int] = []
                for pass in 0..<repeats {
                    for (text, entities) in Window.messages {
                        let layout = PangoPeer.layout(text, entities: entities, width: Window.width)
                        if pass == repeats - 1 { shape += [layout.lines, Int(layout.height)] }
                        blackHole(layout)
                    }
                }
                return shape
            })
        let peerSeconds = row.peer?.seconds ?? 0
        print(
            "TextLayout: \(String(format: "%.2f", row.ours.seconds / windows * 1000)) ms per window (goal ≤ 16 ms); "
                + "Pango directly: \(String(format: "%.2f", peerSeconds / windows * 1000)) ms per window (medians)")
        printTable(
            title: "TextLayout: 44-message window at \(Window.width) px vs Pango directly",
            peerName: "Pango directly", [row])
    }
}
