import BenchmarkSupport
import Foundation
import PostboxBenchData

/// Prints the write-to-emit table: Postbox's latency, GRDB's with both ways of declaring an observation, the ratio
/// against GRDB's faster one (above 1: Postbox emits sooner), and each goal (BENCHMARKS.md) with ✔ or ✘; last, the
/// baseline: the write transaction alone with nothing open, which every latency above includes.
func printLatencyTable(ours: [ViewWorkload: LatencySummary], writeOnly: LatencySummary, grdb: GRDBPeer) {
    func cell(_ summary: LatencySummary?) -> String {
        guard let summary else { return "—" }
        return String(format: "%.3f ms (p90 %.3f)", summary.median * 1000, summary.p90 * 1000)
    }
    print(
        "\n### Write-to-emit latency, one inserted message (median, p90; \(ours.values.first?.iterations ?? 0) writes)\n"
    )
    print(
        "| workload | Postbox | GRDB `tracking` | GRDB `trackingConstantRegion` | ratio (GRDB best / Postbox) | goal |")
    print("|---|---:|---:|---:|---:|---|")
    for workload in ViewWorkload.allCases {
        guard let mine = ours[workload] else { continue }
        let tracking = grdb.results[workload.rawValue]
        let constant = grdb.results[workload.rawValue + "-constant"]
        let best = [tracking, constant].compactMap { $0?.median }.min()
        let ratio = best.map { $0 / mine.median }
        let goal: String
        switch workload {
        case .oneHistoryView: goal = "≤ 0.5 ms median " + (mine.median <= 0.0005 ? "✔" : "✘")
        case .hundredHistoryViews: goal = "≥ 20× GRDB " + (ratio.map { $0 >= 20 ? "✔" : "✘" } ?? "(no GRDB figure)")
        case .chatList: goal = "≤ 2 ms median " + (mine.median <= 0.002 ? "✔" : "✘")
        }
        let ratioText = ratio.map { String(format: "%.1f×", $0) } ?? "—"
        print(
            "| \(workload.title) | \(cell(mine)) | \(cell(tracking)) | \(cell(constant)) | \(ratioText) | \(goal) |")
    }
    let grdbWrite = grdb.results[ViewBenchData.writeOnlyName]
    let ratio = grdbWrite.map { String(format: "%.1f×", $0.median / writeOnly.median) } ?? "—"
    print(
        "| baseline: the write transaction alone, nothing open | \(cell(writeOnly)) | \(cell(grdbWrite)) | — | \(ratio) | |"
    )
}
