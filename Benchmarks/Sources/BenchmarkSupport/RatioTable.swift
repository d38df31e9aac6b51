import Foundation

/// One row: our measurement against the peer's on the same workload.
public struct Comparison: Sendable {
    public let workload: String
    public let ours: Measurement
    public let peer: Measurement?
    public let goal: String
    /// The ratio of each interleaved round (peer time / our time), when the two were measured round by round.
    public let roundRatios: [Double]

    /// `ours` against `peer`, with its goal ("≥ 1.5×") and, for interleaved rounds, each round's ratio.
    public init(
        _ workload: String, ours: Measurement, peer: Measurement?, roundRatios: [Double] = [], goal: String = ""
    ) {
        self.workload = workload
        self.ours = ours
        self.peer = peer
        self.roundRatios = roundRatios
        self.goal = goal
    }

    /// Our median throughput divided by the peer's (above 1: we are faster).
    public var ratio: Double? { peer.map { ours.throughput / $0.throughput } }
    /// The lowest and highest ratio of a single round, for interleaved comparisons.
    public var ratioRange: ClosedRange<Double>? {
        guard let low = roundRatios.min(), let high = roundRatios.max() else { return nil }
        return low...high
    }
}

/// Prints a Markdown table of comparisons, ready to paste into BENCHMARKS.md.
public func printTable(title: String, peerName: String, _ rows: [Comparison]) {
    print("\n### \(title)\n")
    print("| workload | ours | \(peerName) | ratio (ours/peer) | goal |")
    print("|---|---:|---:|---:|---|")
    for row in rows {
        let ours = format(row.ours)
        let peer = row.peer.map(format) ?? "—"
        var ratio = row.ratio.map { String(format: "%.2f×", $0) } ?? "—"
        if let range = row.ratioRange, row.roundRatios.count > 1 {
            ratio += String(format: " (%.2f–%.2f)", range.lowerBound, range.upperBound)
        }
        print("| \(row.workload) | \(ours) | \(peer) | \(ratio) | \(row.goal) |")
    }
}

/// A measurement's median throughput, scaled ("3.08 Mvalues/s"), and its slowest–fastest run when it has several.
func format(_ m: Measurement) -> String {
    let median = "\(scaled(m.throughput, unit: m.unit))\(m.unit)/s"
    guard let range = m.throughputRange, m.runs > 1 else { return median }
    let low = scaled(range.lowerBound, unit: m.unit).trimmingCharacters(in: .whitespaces)
    let high = scaled(range.upperBound, unit: m.unit).trimmingCharacters(in: .whitespaces)
    return "\(median) (\(low)–\(high))"
}

/// `value` with a k / M / G prefix (whole MB for "MB").
func scaled(_ value: Double, unit: String) -> String {
    if unit == "MB" { return String(format: "%.0f ", value) }
    switch value {
    case 1e9...: return String(format: "%.2f G", value / 1e9)
    case 1e6...: return String(format: "%.2f M", value / 1e6)
    case 1e3...: return String(format: "%.1f k", value / 1e3)
    default: return String(format: "%.1f ", value)
    }
}

/// One line naming the machine and the date, printed above the tables.
public func printMachine() {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
    let date = ISO8601DateFormatter().string(from: Date())
    // The load average tells a reader whether other work shared the cores during the run.
    let load =
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
        .joined(separator: " ") ?? "unknown"
    print(
        String(
            format: "machine: %d cores, %.0f GiB, %@; %@; load average %@", cores, memory,
            ProcessInfo.processInfo.operatingSystemVersionString, date, load))
}
