import Foundation

/// One row: our measurement against the peer's on the same workload.
public struct Comparison: Sendable {
    public let workload: String
    public let ours: Measurement
    public let peer: Measurement?
    public let goal: String

    /// `ours` against `peer`, with its goal ("≥ 1.5×").
    public init(_ workload: String, ours: Measurement, peer: Measurement?, goal: String = "") {
        self.workload = workload
        self.ours = ours
        self.peer = peer
        self.goal = goal
    }

    /// Our throughput divided by the peer's (above 1: we are faster).
    public var ratio: Double? { peer.map { ours.throughput / $0.throughput } }
}

/// Prints a Markdown table of comparisons, ready to paste into BENCHMARKS.md.
public func printTable(title: String, peerName: String, _ rows: [Comparison]) {
    print("\n### \(title)\n")
    print("| workload | ours | \(peerName) | ratio (ours/peer) | goal |")
    print("|---|---:|---:|---:|---|")
    for row in rows {
        let ours = format(row.ours)
        let peer = row.peer.map(format) ?? "—"
        let ratio = row.ratio.map { String(format: "%.2f×", $0) } ?? "—"
        print("| \(row.workload) | \(ours) | \(peer) | \(ratio) | \(row.goal) |")
    }
}

func format(_ m: Measurement) -> String {
    let value = m.throughput
    if m.unit == "MB" { return String(format: "%.0f MB/s", value) }
    let scaled: String
    switch value {
    case 1e9...: scaled = String(format: "%.2f G", value / 1e9)
    case 1e6...: scaled = String(format: "%.2f M", value / 1e6)
    case 1e3...: scaled = String(format: "%.1f k", value / 1e3)
    default: scaled = String(format: "%.1f ", value)
    }
    return "\(scaled)\(m.unit)/s"
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
