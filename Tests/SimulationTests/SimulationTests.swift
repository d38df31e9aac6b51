import Foundation
import Simulation
import Testing

/// The simulation in `make test`: seeds 1–50 hold every invariant, and a seed replays to the same trace. One test at a
/// time, so that no more than two worlds share the machine with the other unit tests (a world waits for quiet between
/// timers; more of them at once would stretch what it must wait for).
@Suite(.serialized) struct SimulationTests {
    @Test func fiftySeedsHoldEveryInvariant() async {
        var failed: [String] = []
        // Two at a time, as `make simulate` runs them: the longest test of the unit run finishes sooner.
        var seeds: [UInt64] = []
        for await report in Simulation.run(seeds: 1..<51, concurrently: 2) {
            let seed = report.seed
            seeds.append(seed)
            if !report.passed {
                failed.append(
                    "seed \(seed): \(report.failures.joined(separator: "; "))\n" + report.trace.joined(separator: "\n"))
            }
        }
        #expect(seeds == Array(1...50))
        #expect(failed.isEmpty, "\(failed.joined(separator: "\n\n"))")
    }

    @Test func aSeedReplaysToTheSameTrace() async {
        // Once seed by seed, once two at a time (as `make simulate` runs them): the same traces.
        let alone = [await Simulation.run(seed: 16), await Simulation.run(seed: 17)]
        var together: [SimulationReport] = []
        for await report in Simulation.run(seeds: 16..<18, concurrently: 2) { together.append(report) }
        #expect(together.map(\.seed) == [16, 17])
        for (first, second) in zip(alone, together) {
            #expect(first.passed && second.passed)
            #expect(first.trace == second.trace)
            #expect(first.trace.count > 5)
        }
    }

    @Test func theWorkloadIsAFunctionOfTheSeed() {
        #expect(SimulationWorkload(seed: 42) == SimulationWorkload(seed: 42))
        #expect(SimulationWorkload(seed: 42) != SimulationWorkload(seed: 43))
        // Over many seeds every kind of step occurs.
        let steps = (UInt64(1)...200).flatMap { SimulationWorkload(seed: $0).steps }
        #expect(steps.contains { if case .restartServer = $0 { true } else { false } })
        #expect(steps.contains { if case .offline = $0 { true } else { false } })
        #expect(steps.contains { if case .faultyNetwork(_, true) = $0 { true } else { false } })
        #expect(steps.contains { if case .send(_, .group, _) = $0 { true } else { false } })
        #expect(steps.contains { if case .read(_, .account) = $0 { true } else { false } })
        #expect(steps.contains { if case .read(_, .group) = $0 { true } else { false } })
        #expect(steps.contains { if case .timePasses = $0 { true } else { false } })
        #expect(steps.contains { if case .send(_, .secret, _) = $0 { true } else { false } })
        #expect(Set((UInt64(1)...50).map { SimulationWorkload(seed: $0).serverClockSkew }).count > 10)
    }
}
