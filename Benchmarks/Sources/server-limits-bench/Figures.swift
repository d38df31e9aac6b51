import BenchmarkSupport
import Foundation

/// The figures of every round, row by row in the order first added, each printed as the median of all rounds with
/// the min–max (BENCHMARKS.md, "Method": none dropped, none chosen).
struct Figures {
    struct Row {
        let what: String
        let unit: String
        let decimals: Int
        var values: [Double]

        /// "median unit (min–max)", or the one value after a single round.
        var text: String {
            let sorted = values.sorted()
            let unit = self.unit.isEmpty ? "" : " \(self.unit)"
            func number(_ value: Double) -> String { String(format: "%.\(decimals)f", value) }
            guard sorted.count > 1 else { return number(sorted[0]) + unit }
            return "\(number(median(sorted)))\(unit) (\(number(sorted[0]))–\(number(sorted[sorted.count - 1])))"
        }
    }

    private(set) var rows: [Row] = []

    /// Adds this round's `value` to the row `what`, creating it on the first round.
    mutating func add(_ what: String, _ value: Double, unit: String, decimals: Int = 1) {
        if let index = rows.firstIndex(where: { $0.what == what }) {
            rows[index].values.append(value)
        } else {
            rows.append(Row(what: what, unit: unit, decimals: decimals, values: [value]))
        }
    }
}
