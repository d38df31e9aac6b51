import Foundation
import Testing

/// Polls `condition` every 2 ms for up to 5 s; records `what` as an issue and throws when it is not met by then.
func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(5)
    while !condition() {
        guard Date() < deadline else {
            Issue.record("\(what): not within 5 s")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(2))
    }
}
