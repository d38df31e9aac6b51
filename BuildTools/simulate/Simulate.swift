import ArgumentParser
import Foundation
import Simulation

/// `simulate`: runs seeds of the deterministic simulation (BuildTools/Simulation) and reports the failing ones with
/// their traces; `--seed N` replays one.
@main
struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run TelegramCore accounts against tg-server's backend in one process, one seed at a time.",
        discussion: """
            Each seed draws 2-4 accounts and 6-20 steps (messages, accounts going offline and coming back, server \
            restarts, pushes lost, repeated or held back) and checks after every step that nothing sent is lost, \
            duplicated or reordered and that pts never goes back. A failing seed prints its trace; `--seed N` \
            replays it (the same trace every time).

            EXIT CODES: 0 every seed passed; 1 a seed failed; 64 usage error.
            """)

    @Option(help: "How many seeds to run, starting at --first.")
    var seeds: Int = 100

    @Option(help: "The first seed of the run.")
    var first: UInt64 = 1

    @Option(help: "Replay this one seed and print its trace.")
    var seed: UInt64?

    @Option(help: "How many seeds run at once (each is its own world; by default one per processor).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Print every seed's trace.")
    var verbose = false

    @Flag(help: "Stop at the first failing seed.")
    var failFast = false

    @Flag(
        help: """
            Record the order in which tasks ran on each world's simulated queues: print each seed's task count and \
            digests of the order (whole, and queue by queue); with --seed, every task as well.
            """)
    var traceTasks = false

    /// Swift seeds its hash function per process, so the order of a `Set` or a `Dictionary` — which product code
    /// iterates — differs from one run to the next, and with it the order of what a world's tasks set off. The runtime
    /// reads `SWIFT_DETERMINISTIC_HASHING` when the process starts: without it, the tool runs itself again with it set
    /// (and on as it is if that fails).
    static func hashDeterministically() {
        guard getenv("SWIFT_DETERMINISTIC_HASHING") == nil else { return }
        setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
        var arguments = CommandLine.arguments.map { strdup($0) } + [nil]
        execv("/proc/self/exe", &arguments)
    }

    func validate() throws {
        guard seeds >= 1 else { throw ValidationError("--seeds must be at least 1") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        Self.hashDeterministically()
        if let seed {
            let report = await Simulation.run(seed: seed, tracingTasks: traceTasks)
            for line in report.trace { print(line) }
            if let tasks = report.taskTrace {
                for line in tasks.lines { print("task \(line)") }
                print(Self.summary(of: tasks, seed: seed))
            }
            guard report.passed else {
                for failure in report.failures { print("FAILED: \(failure)") }
                throw ExitCode(1)
            }
            print("seed \(seed) passed in \(String(format: "%.2f", report.seconds)) s")
            return
        }
        let started = Date()
        var failed: [UInt64] = []
        var durations: [Double] = []
        var reported = 0
        // Seeds run `jobs` at a time; their reports are printed in seed order, as they would be one by one.
        let reports = Simulation.run(
            seeds: first..<(first + UInt64(seeds)), concurrently: jobs, tracingTasks: traceTasks)
        for await report in reports {
            reported += 1
            if let tasks = report.taskTrace { print(Self.summary(of: tasks, seed: report.seed)) }
            durations.append(report.seconds)
            if verbose { for line in report.trace { print(line) } }
            if !report.passed {
                failed.append(report.seed)
                print("seed \(report.seed) FAILED:")
                for failure in report.failures { print("  \(failure)") }
                if !verbose { for line in report.trace { print("  | \(line)") } }
                print("  replay: make simulate SEED=\(report.seed)")
                if failFast {
                    print("simulate: seed \(report.seed) failed after \(reported) seed(s)")
                    throw ExitCode(1)
                }
            }
            if reported % 50 == 0 || reported == seeds {
                let elapsed = Date().timeIntervalSince(started)
                FileHandle.standardError.write(
                    Data(
                        "simulate: \(reported)/\(seeds) seeds, \(failed.count) failed, \(String(format: "%.1f", elapsed)) s\n"
                            .utf8))
            }
        }
        let sorted = durations.sorted()
        let median = sorted[sorted.count / 2]
        let elapsed = Date().timeIntervalSince(started)
        print(
            "simulate: \(seeds - failed.count) of \(seeds) seeds passed in \(String(format: "%.1f", elapsed)) s, "
                + "\(jobs) at a time (a seed: median \(String(format: "%.3f", median)) s, max \(String(format: "%.3f", sorted.last ?? 0)) s)"
        )
        if !failed.isEmpty {
            print("failed seeds: \(failed.map(String.init).joined(separator: " "))")
            throw ExitCode(1)
        }
    }

    /// One line per seed of `--trace-tasks`: how many tasks ran and the digests of their order.
    static func summary(of tasks: SimulationTaskTrace, seed: UInt64) -> String {
        "seed \(seed) tasks: \(tasks.entries.count) on \(tasks.queueNames.count) queues, order "
            + String(tasks.orderDigest, radix: 16) + ", per queue " + String(tasks.perQueueDigest, radix: 16)
            + (tasks.undrivenAdmissions > 0 ? ", \(tasks.undrivenAdmissions) undriven admissions" : "")
    }
}
