import BenchmarkSupport
import TextLayout

/// `TextLayout.layout` over a 44-message window of mixed text against Pango called directly on the same strings
/// (`PangoPeer`), on one thread; both are checked to give the same line counts and heights first.
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
        for (text, entities) in Window.messages {
            let ours = TextLayout.layout(text, entities: entities, width: Window.width)
            let peer = PangoPeer.layout(text, entities: entities, width: Window.width)
            precondition(ours.lineCount == peer.lines, "line counts differ for \(text.prefix(20))…")
            precondition(ours.bounds.height * 1024 == Double(peer.height), "heights differ for \(text.prefix(20))…")
        }
        let windows = Double(repeats)
        let ours = measure("44-message window", items: windows, unit: "windows", runs: 9) {
            for _ in 0..<repeats {
                for (text, entities) in Window.messages {
                    blackHole(TextLayout.layout(text, entities: entities, width: Window.width))
                }
            }
        }
        let peer = measure("44-message window", items: windows, unit: "windows", runs: 9) {
            for _ in 0..<repeats {
                for (text, entities) in Window.messages {
                    blackHole(PangoPeer.layout(text, entities: entities, width: Window.width))
                }
            }
        }
        print(
            "TextLayout: \(String(format: "%.2f", ours.seconds / windows * 1000)) ms per window (goal ≤ 16 ms); "
                + "Pango directly: \(String(format: "%.2f", peer.seconds / windows * 1000)) ms per window")
        printTable(
            title: "TextLayout: 44-message window at \(Window.width) px vs Pango directly",
            peerName: "Pango directly",
            [Comparison("44-message window (mixed scripts, entities)", ours: ours, peer: peer, goal: "≥ 0.9×")])
    }
}
