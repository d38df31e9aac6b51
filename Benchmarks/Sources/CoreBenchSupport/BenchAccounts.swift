import Foundation
public import TelegramCore

/// What the TelegramCore benchmarks share: signing up a test number through the account manager and waiting for a
/// condition with a time limit.
public enum BenchAccounts {
    /// Signs up `phone` (`99966XYYYY`: DC X, code X five times) and opens the account.
    public static func signUp(_ manager: AccountManager, phone: String, name: String) async throws -> Account {
        let unauthorized = try manager.addUnauthorizedAccount()
        let authorization = manager.authorization(unauthorized)
        _ = try await authorization.sendCode(phoneNumber: phone).get()
        _ = try await authorization.signIn(code: String(repeating: Array(phone)[5], count: 5)).get()
        _ = try await authorization.signUp(firstName: name, lastName: "").get()
        return try manager.account(unauthorized.id)
    }

    /// Polls `condition` every 2 ms until it holds; throws `BenchFailure` after `timeout` seconds.
    public static func waitFor(_ what: String, timeout: Double = 60, _ condition: @Sendable () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else { throw BenchFailure("\(what): not within \(timeout) s") }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// A benchmark step that could not be carried out.
public struct BenchFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
