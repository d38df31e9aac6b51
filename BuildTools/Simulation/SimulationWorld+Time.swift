import Dispatch
import Foundation
import Postbox
import TelegramCore

/// How the world moves its virtual clock: only when nothing is left to run at the current instant, to the next timer
/// due (FoundationDB's simulation does the same), so that a gap wait or a retry costs no wall time and fires after
/// everything that came before it in virtual time.
extension SimulationWorld {
    /// Runs the world until `missing()` is nil: waits until nothing is left to run now (`quiesce`), asks, and if
    /// something is still missing fires the next timer (moving the clock to it) and asks again. Returns nil, or what
    /// was missing once the clock passed `Simulation.virtualBound` seconds, once no timer was left and nothing ran
    /// for `Simulation.quietTimeout` wall seconds, or after `Simulation.settleTimeout` wall seconds.
    func drive(missing: () -> String?) async -> String? {
        let start = clock.now
        let deadline = Date().addingTimeInterval(Simulation.settleTimeout)
        clock.executor.beginDriving()
        defer { clock.executor.endDriving() }
        var quietSince: (date: Date, activity: Int)?
        while true {
            await quiesce(until: deadline)
            let before = clock.activity
            guard let gap = missing() else { return nil }
            if Date() >= deadline { return "\(gap) (after \(Int(Simulation.settleTimeout)) s)" }
            // Asking may itself set work off (held pushes handed over, a reconnect reported): let it run before any
            // timer fires.
            if clock.activity != before || clock.busy > 0 || clock.executor.held > 0 { continue }
            if clock.fireNext(until: start + Simulation.virtualBound) {
                quietSince = nil
                continue
            }
            if clock.nextDue != nil {
                return "\(gap) (after \(Int(Simulation.virtualBound)) virtual s)"
            }
            // No timer is left: only work on real threads (a task between two calls) can still change anything.
            let activity = clock.activity
            if let since = quietSince, since.activity == activity {
                if Date().timeIntervalSince(since.date) >= Simulation.quietTimeout {
                    return "\(gap) (nothing left to happen)"
                }
            } else {
                quietSince = (Date(), activity)
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Waits until nothing is left to run at this virtual instant: timers due now fired, no task waiting on the
    /// world's executor (the accounts' queues, their Postboxes' writers, their managers' Swift tasks), and nothing new
    /// happened across `Simulation.quietLooks` more looks
    /// spanning at least `Simulation.quietSpan` wall seconds — work on threads the clock does not see (a task between
    /// two calls) gets that long to show itself, even on a loaded machine. Then what the executor's gate held
    /// (`SimulationExecutor`) is admitted, in the order of its queues, and the looks start again until nothing is.
    func quiesce(until deadline: Date) async {
        var last = -1
        var quiet = (looks: 0, since: Date())
        while Date() < deadline {
            // A timer that sets itself again at once would keep this instant going: a bounded number per look.
            var fired = 0
            while fired < 1_000, clock.fireNext(until: clock.now) { fired += 1 }
            if clock.busy > 0 {
                quiet.looks = 0
                try? await Task.sleep(for: .microseconds(200))
                continue
            }
            let seen = clock.activity
            if seen == last && clock.busy == 0 && clock.nextDue.map({ $0 > clock.now }) ?? true {
                quiet.looks += 1
                if quiet.looks >= Simulation.quietLooks
                    && Date().timeIntervalSince(quiet.since) >= Simulation.quietSpan
                {
                    // Quiet: what arrived from outside meanwhile runs now, in the order of its queues.
                    guard clock.executor.admit() > 0 else { return }
                    quiet = (0, Date())
                    last = -1
                    continue
                }
            } else {
                quiet = (0, Date())
            }
            last = seen
            try? await Task.sleep(for: .microseconds(300))
        }
    }

    /// The "time passes" step: the world's clock — the devices', the server's and every timer's — moves forward by
    /// `seconds`, firing each timer that falls due on the way, in order, each after what the one before set off.
    /// Returns nil, or why the step could not finish (the world did not become quiet within `settleTimeout` of a
    /// timer's firing).
    func passTime(_ seconds: Double) async -> String? {
        let target = clock.now + seconds
        clock.executor.beginDriving()
        defer { clock.executor.endDriving() }
        // A timer that sets itself again (a retry every 2 s) would fire tens of thousands of times in three days:
        // past this many, the clock moves to the target and the rest fire at the next settle.
        for _ in 0..<1_000 {
            let deadline = Date().addingTimeInterval(Simulation.settleTimeout)
            await quiesce(until: deadline)
            if Date() >= deadline {
                return "time did not pass: the world was still busy after \(Int(Simulation.settleTimeout)) s"
            }
            guard clock.fireNext(until: target) else { break }
        }
        clock.advance(to: target)
        return nil
    }
}
