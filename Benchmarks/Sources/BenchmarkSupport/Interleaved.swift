import Foundation

/// The one method every comparison uses (BENCHMARKS.md, "Method"): a warm-up run of each side whose outputs must
/// be equal, then rounds in which the two sides run back to back — alternating which goes first — and the median of
/// all rounds with their fastest and slowest. Under `make bench-check` (`BENCH_CHECK=1`) each comparison runs one
/// round: it checks that both sides still do the same work, not how fast.
public enum BenchmarkMethod {
    /// `make bench-check` is running: one round each, outputs compared.
    public static var isCheck: Bool { ProcessInfo.processInfo.environment["BENCH_CHECK"] == "1" }

    /// The rounds to run: `preferred`, or `BENCH_ROUNDS` when set, or 1 under `make bench-check`.
    public static func rounds(_ preferred: Int) -> Int {
        if isCheck { return 1 }
        if let text = ProcessInfo.processInfo.environment["BENCH_ROUNDS"], let rounds = Int(text), rounds > 0 {
            return rounds
        }
        return preferred
    }

    /// Ends the benchmark with a clear message and exit status 2: the two sides of `workload` did different work, so
    /// no figure from it may be quoted.
    public static func differentWork(_ workload: String, ours: String, peer: String) -> Never {
        FileHandle.standardError.write(
            Data("error: \(workload): the two sides did different work (ours gave \(ours), the peer \(peer))\n".utf8))
        exit(2)
    }
}

/// One timed run of one side: its wall time and what it produced.
public struct TimedRun<Output> {
    public let seconds: Double
    public let output: Output

    public init(seconds: Double, output: Output) {
        self.seconds = seconds
        self.output = output
    }
}

/// Times `body` with this process's monotonic clock.
public func timedRun<Output>(_ body: () -> Output) -> TimedRun<Output> {
    let start = now()
    let output = body()
    return TimedRun(seconds: now() - start, output: output)
}

/// Times `ours` and `peer` in interleaved rounds and compares what they produced.
///
/// Each side runs once to warm up; their outputs must be equal (a checksum of the values delivered, the bytes
/// written, …), or the benchmark stops with `BenchmarkMethod.differentWork`. Then `rounds` rounds, each running both
/// sides back to back, ours first in even rounds and the peer first in odd ones, each output checked again. The row
/// carries both medians with their min–max, and the ratio of each round (its min–max is the spread a reader should
/// trust).
public func compareInterleaved<Output: Equatable>(
    _ workload: String, items: Double, unit: String, rounds: Int = 7, goal: String = "",
    ours: () -> Output, peer: () -> Output
) -> Comparison {
    compareInterleaved(
        workload, items: items, unit: unit, rounds: rounds, goal: goal, oursTimed: { timedRun(ours) },
        peerTimed: { timedRun(peer) })
}

/// `compareInterleaved` for sides that time themselves: a peer process reports the seconds its own run took
/// (`PeerProcess`), so neither the pipe nor the interpreter's dispatch is counted against it.
public func compareInterleaved<Output: Equatable>(
    _ workload: String, items: Double, unit: String, rounds: Int = 7, goal: String = "",
    oursTimed: () -> TimedRun<Output>, peerTimed: () -> TimedRun<Output>
) -> Comparison {
    let expected = oursTimed().output
    let peerOutput = peerTimed().output
    guard expected == peerOutput else {
        BenchmarkMethod.differentWork(workload, ours: "\(expected)", peer: "\(peerOutput)")
    }
    func timed(_ side: () -> TimedRun<Output>, _ name: String) -> Double {
        let run = side()
        if run.output != expected {
            BenchmarkMethod.differentWork(workload, ours: "\(expected)", peer: "\(name): \(run.output)")
        }
        return run.seconds
    }
    var times = RoundTimes()
    for round in 0..<BenchmarkMethod.rounds(rounds) {
        if round % 2 == 0 {
            let ours = timed(oursTimed, "ours")
            times.add(ours: ours, peer: timed(peerTimed, "peer"))
        } else {
            let peer = timed(peerTimed, "peer")
            times.add(ours: timed(oursTimed, "ours"), peer: peer)
        }
    }
    return times.comparison(workload, items: items, unit: unit, goal: goal)
}

/// `compareInterleaved` for work that must not repeat between rounds — queries never run before, a cache emptied
/// before each round: each side is called with the round's number (0 for the warm-up, then 1, 2, …) and gets the
/// same input for the same number, so the two sides' outputs are compared round by round instead of against the
/// warm-up's. Rounds alternate which side goes first, as in `compareInterleaved`.
public func compareInterleavedRounds<Output: Equatable>(
    _ workload: String, items: Double, unit: String, rounds: Int = 7, goal: String = "",
    oursTimed: (Int) -> TimedRun<Output>, peerTimed: (Int) -> TimedRun<Output>
) -> Comparison {
    var times = RoundTimes()
    for round in 0...BenchmarkMethod.rounds(rounds) {
        let ours: TimedRun<Output>
        let peer: TimedRun<Output>
        if round % 2 == 0 {
            ours = oursTimed(round)
            peer = peerTimed(round)
        } else {
            peer = peerTimed(round)
            ours = oursTimed(round)
        }
        times.add(round: round, of: workload, ours: ours, peer: peer)
    }
    return times.comparison(workload, items: items, unit: unit, goal: goal)
}

/// The rounds of one comparison as they are timed, and the row they make.
struct RoundTimes {
    var ours: [Double] = []
    var peer: [Double] = []

    mutating func add(ours: Double, peer: Double) {
        self.ours.append(ours)
        self.peer.append(peer)
    }

    /// A round of `compareInterleavedRounds`: both sides must have produced the same output (or the benchmark
    /// stops); round 0, the warm-up, is checked but not kept.
    mutating func add<Output: Equatable>(
        round: Int, of workload: String, ours: TimedRun<Output>, peer: TimedRun<Output>
    ) {
        guard ours.output == peer.output else {
            BenchmarkMethod.differentWork("\(workload), round \(round)", ours: "\(ours.output)", peer: "\(peer.output)")
        }
        if round > 0 { add(ours: ours.seconds, peer: peer.seconds) }
    }

    /// Both sides' medians with min–max, and each round's ratio (peer time / ours).
    func comparison(_ workload: String, items: Double, unit: String, goal: String) -> Comparison {
        Comparison(
            workload,
            ours: Measurement(name: "ours", times: ours, items: items, unit: unit),
            peer: Measurement(name: "peer", times: peer, items: items, unit: unit),
            roundRatios: zip(ours, peer).map { $1 / $0 }, goal: goal)
    }
}
