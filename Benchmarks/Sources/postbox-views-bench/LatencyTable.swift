import BenchmarkSupport
import Foundation

/// Prints write-to-emit comparisons as latencies: each side's median over the rounds of its rounds' median latency,
/// with the lowest–highest round in brackets, and the ratio (peer / Postbox: above 1, Postbox emits sooner) with
/// the lowest–highest single-round ratio.
func printLatencyTable(title: String, _ rows: [Comparison]) {
    func cell(_ measurement: BenchmarkSupport.Measurement?) -> String {
        guard let measurement else { return "—" }
        var text = String(format: "%.3f ms", measurement.seconds * 1000)
        if let range = measurement.range, measurement.runs > 1 {
            text += String(format: " (%.3f–%.3f)", range.lowerBound * 1000, range.upperBound * 1000)
        }
        return text
    }
    print("\n### \(title)\n")
    print("| workload | Postbox | GRDB | ratio (GRDB / Postbox) | goal |")
    print("|---|---:|---:|---:|---|")
    for row in rows {
        var ratio = row.ratio.map { String(format: "%.2f×", $0) } ?? "—"
        if let range = row.ratioRange, row.roundRatios.count > 1 {
            ratio += String(format: " (%.2f–%.2f)", range.lowerBound, range.upperBound)
        }
        print("| \(row.workload) | \(cell(row.ours)) | \(cell(row.peer)) | \(ratio) | \(row.goal) |")
    }
}
