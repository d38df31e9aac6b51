import BenchmarkSupport

/// Times `ours` and `peer` in alternating runs and keeps each one's fastest run.
///
/// On a machine shared with other builds, load changes from second to second; alternating the two and taking the
/// minimum compares them under the same conditions (the minimum is the run least disturbed by other work).
func interleaved(
    items: Double, unit: String, runs: Int = 7, ours: () -> Void, peer: () -> Void
) -> (ours: Measurement, peer: Measurement) {
    ours()
    peer()
    var best = (ours: Double.infinity, peer: Double.infinity)
    for _ in 0..<runs {
        var start = now()
        ours()
        best.ours = min(best.ours, now() - start)
        start = now()
        peer()
        best.peer = min(best.peer, now() - start)
    }
    return (
        Measurement(name: "ours", seconds: best.ours, items: items, unit: unit),
        Measurement(name: "peer", seconds: best.peer, items: items, unit: unit)
    )
}
