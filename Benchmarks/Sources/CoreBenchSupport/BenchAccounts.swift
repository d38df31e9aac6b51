import Foundation
public import ServerTestSupport
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

    /// Signs in to `phone`'s existing account (`99966XYYYY`: DC X, code X five times) as a new authorization and
    /// opens it, not started.
    public static func signIn(_ manager: AccountManager, phone: String) async throws -> Account {
        let unauthorized = try manager.addUnauthorizedAccount()
        let authorization = manager.authorization(unauthorized)
        _ = try await authorization.sendCode(phoneNumber: phone).get()
        let result = try await authorization.signIn(code: String(repeating: Array(phone)[5], count: 5)).get()
        guard case .loggedIn = result else { throw BenchFailure("\(phone) could not sign in: \(result)") }
        return try manager.account(unauthorized.id)
    }

    /// Polls `condition` every 2 ms until it holds; throws `BenchFailure` after `timeout` seconds.
    public static func waitFor(
        _ what: String, timeout: Double = 60, _ condition: @Sendable () throws -> Bool
    ) async throws {
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

/// tg-server in the benchmark's process with a scratch folder beside it: the server's public key as PEM for Telethon,
/// DC 2's port, and the network environment our accounts connect with.
public struct BenchWorld: Sendable {
    public let server: BackendServer
    /// The scratch folder (`<tmp>/<name>-<uuid>`); `remove()` deletes it.
    public let root: String
    /// The server's public key, PKCS#1 PEM, for the Telethon scripts.
    public let pem: String
    /// DC 2's port on 127.0.0.1.
    public let port: Int
    public let environment: NetworkEnvironment

    /// `channelDifferenceGap`: tg-server's `--channel-difference-gap` (nil: its default).
    public init(name: String, channelDifferenceGap: Int64? = nil) async throws {
        server =
            if let channelDifferenceGap {
                try await BackendServer(channelDifferenceGap: channelDifferenceGap)
            } else {
                try await BackendServer()
            }
        root = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        pem = root + "/server.pem"
        try server.writePublicKeyPEM(to: pem)
        guard let endpoint = server.endpoints[2] else { throw BenchFailure("tg-server has no DC 2") }
        port = endpoint.port
        environment = NetworkEnvironment(
            datacenters: server.endpoints, defaultMainDc: 2, publicKeys: server.publicKeys, group: server.group)
    }

    /// Deletes the scratch folder.
    public func remove() { try? FileManager.default.removeItem(atPath: root) }
}
