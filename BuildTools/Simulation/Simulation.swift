import AccountNetworking
import Foundation
import Postbox
import ServerLoopback
import SwiftSignalKit
import SyncCore
import TelegramApi
import TelegramCore

/// Many accounts and tg-server in one process, driven by one seed: every account is a real TelegramCore `Account`
/// (its own Postbox, state manager and pending queue) on a `LoopbackNetwork` to a real `ServerBackend`, so everything
/// above the transport is the product's own code. The seed draws the workload (`SimulationWorkload`) and every fault
/// (`NetworkFaults`); after each step the world settles and the invariants are checked, and once more at the end:
/// - every message an account enqueued is acknowledged by the server (none lost from the unsent queue) once its
///   sender is online, and reaches its recipient once the recipient is online;
/// - at the end, each side of each chat holds exactly the messages sent in it, once each, in the order they were
///   enqueued;
/// - an account's pts never goes back (watched on every state the state manager publishes).
///
/// The trace — the steps, each settle's outcome, every chat's final contents and each account's push counts — is a
/// function of the seed: `run(seed:)` twice gives the same trace (tested), so a failing seed replays.
public enum Simulation {
    /// How many wall seconds a settle may take before the seed fails: a backstop for work that never ends (the
    /// world normally settles in milliseconds, and gives up on virtual time first).
    public static let settleTimeout = 10.0
    /// How far a settle may move the world's virtual clock (firing timers) before the seed fails with what is
    /// missing: past every gap wait and retry a healthy account needs.
    public static let virtualBound = 120.0
    /// How long (wall seconds) a world with no timer left and nothing running may stay short of its goal before the
    /// seed fails: nothing is left that could change it. Generous, since only a failing seed waits it out and a loaded
    /// machine may hold a thread for seconds; shorter than `settleTimeout`, so such a seed says why.
    public static let quietTimeout = 5.0
    /// How many consecutive looks must find nothing new before the world counts as quiet at this instant, and over how
    /// many wall seconds at least (`SimulationWorld.quiesce`).
    public static let quietLooks = 3
    public static let quietSpan = 0.002
    /// Where every world's virtual clock starts (seconds since 1970: 2027-01-15 08:00 UTC), so that the dates a seed
    /// gives its messages do not depend on the day it runs.
    public static let epoch = 1_800_000_000.0

    /// Runs one seed; with `tracingTasks`, the report holds the order in which tasks ran on the world's queues.
    public static func run(seed: UInt64, tracingTasks: Bool = false) async -> SimulationReport {
        let started = Date()
        let workload = SimulationWorkload(seed: seed)
        var trace = [
            "seed \(seed): \(workload.datacenters.count) accounts on DCs "
                + "\(workload.datacenters.map(String.init).joined(separator: ",")), the server's clock "
                + "\(Int(workload.serverClockSkew / 3600)) h off, the devices' "
                + workload.deviceClockSkews.map { "\(Int($0 / 60)) min" }.joined(separator: ",")
        ]
        var failures: [String] = []
        var taskTrace: SimulationTaskTrace?
        do {
            let world = try await SimulationWorld(
                seed: seed, datacenters: workload.datacenters, serverClockSkew: workload.serverClockSkew,
                deviceClockSkews: workload.deviceClockSkews, tracingTasks: tracingTasks)
            defer { world.remove() }
            trace.append("signed up, introduced, started")
            for (index, step) in workload.steps.enumerated() {
                if let stuck = try await world.performWithin(step) {
                    failures.append("step \(index + 1) (\(step)): \(stuck)")
                    trace.append("step \(index + 1): \(step) — \(stuck)")
                    break
                }
                let outcome = await world.settle()
                trace.append("step \(index + 1): \(step) — \(outcome ?? "settled")")
                if let outcome { failures.append("step \(index + 1) (\(step)): \(outcome)") }
                if let violation = world.ptsViolation { failures.append("after step \(index + 1): \(violation)") }
                if !failures.isEmpty { break }
            }
            if failures.isEmpty {
                if let outcome = try await world.finish() { failures.append("final: \(outcome)") }
                if let outcome = await world.settle() { failures.append("final settle: \(outcome)") }
                trace += world.chats()
                failures += world.exactlyOnceInOrder()
                failures += await world.filesArrived()
                if let violation = world.ptsViolation { failures.append(violation) }
            }
            trace += world.pushCounts()
            // Up to here: the world's teardown (below) is not driven, so its order is the threads'.
            taskTrace = world.clock.taskTrace
            // A world whose step hung is left as it is: shutting it down could hang too.
            if failures.allSatisfy({ !$0.contains("did not finish") }) { await world.shutdown() }
        } catch {
            failures.append("the world failed: \(error)")
        }
        return SimulationReport(
            seed: seed, trace: trace, failures: failures, seconds: Date().timeIntervalSince(started),
            taskTrace: taskTrace)
    }
}

/// What one seed did.
public struct SimulationReport: Sendable {
    public let seed: UInt64
    /// One line per event, the same for the same seed.
    public let trace: [String]
    /// Every invariant broken (empty when the seed passed).
    public let failures: [String]
    public let seconds: Double
    /// The order in which tasks ran on the world's queues, when traced (`run(seed:tracingTasks:)`).
    public let taskTrace: SimulationTaskTrace?

    public var passed: Bool { failures.isEmpty }
}

extension Simulation {
    /// Runs `seeds`, at most `concurrently` at once, and yields their reports in seed order. Each seed is a world of
    /// its own (its server, accounts and directories), so running several at once changes no seed's trace.
    public static func run(
        seeds: Range<UInt64>, concurrently: Int, tracingTasks: Bool = false
    ) -> AsyncStream<SimulationReport> {
        AsyncStream { continuation in
            let work = Task {
                await withTaskGroup(of: SimulationReport.self) { group in
                    var next = seeds.lowerBound
                    var finished: [UInt64: SimulationReport] = [:]
                    var due = seeds.lowerBound
                    while next < seeds.upperBound && next - seeds.lowerBound < UInt64(max(1, concurrently)) {
                        let seed = next
                        group.addTask { await run(seed: seed, tracingTasks: tracingTasks) }
                        next += 1
                    }
                    for await report in group {
                        finished[report.seed] = report
                        while let ready = finished.removeValue(forKey: due) {
                            continuation.yield(ready)
                            due += 1
                        }
                        if Task.isCancelled { break }
                        if next < seeds.upperBound {
                            let seed = next
                            group.addTask { await run(seed: seed, tracingTasks: tracingTasks) }
                            next += 1
                        }
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }
}
