import Foundation
import Testing

/// Polls `condition` every 2 ms until it holds; records `what` as an issue and throws once it has been polled for
/// 10 s without holding. Only the time this task actually polled counts (each pause at most 100 ms): these tests run
/// beside the rest of the unit tests on two cores, and a suite that holds both of the cooperative pool's threads for
/// a minute (copying the repository, say) must not fail a wait that was never given the chance to look.
func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
    var budget = 10.0
    var last = Date()
    while !condition() {
        let now = Date()
        budget -= min(now.timeIntervalSince(last), 0.1)
        last = now
        guard budget > 0 else {
            Issue.record("\(what): not within 10 s of polling")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// Polls `condition` every millisecond on the calling thread (one of its own: `offPool`) for up to `seconds`;
/// whether it held.
func poll(for seconds: Double = 30, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { return false }
        usleep(1_000)
    }
    return true
}
