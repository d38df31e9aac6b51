import Foundation
import Network
import Postbox
import PostboxTesting
import ServerTestSupport
import SwiftSignalKit
import TelegramCore
import TestVectors
import Testing
import UpdateSequencing

/// A small harness for the tests against tg-server (the TelegramCoreTests helpers live in that test target): a
/// server in this process, an account manager over it, sign-up of our account, the Telethon peer, and waits with
/// deadlines.
struct ServerHarness {
    let server: BackendServer
    let root: TemporaryDirectory
    let manager: AccountManager

    init(stickerSet: Bool = false) async throws {
        server = try await BackendServer(stickerSet: stickerSet)
        root = TemporaryDirectory(prefix: "media-resources")
        manager = try AccountManager(
            rootPath: root.path,
            environment: NetworkEnvironment(
                datacenters: server.endpoints, defaultMainDc: 2, publicKeys: server.publicKeys, group: server.group),
            stateConfiguration: .init(gapWait: 0.5))
    }

    /// Signs up test number `phone` (`99966XYYYY`: code X five times) and opens its account.
    func signUp(phone: String, name: String) async throws -> Account {
        let unauthorized = try manager.addUnauthorizedAccount()
        let authorization = manager.authorization(unauthorized)
        _ = try await authorization.sendCode(phoneNumber: phone).get()
        let code = String(repeating: String(Array(phone)[5]), count: 5)
        #expect(try await authorization.signIn(code: code).get() == .signUpRequired)
        _ = try await authorization.signUp(firstName: name, lastName: "").get()
        return try manager.account(unauthorized.id)
    }

    /// Starts `account` and waits (at most 60 s) for its first state: only what the server pushes after that state is
    /// a live update; a message sent before it is history, which the chat's holes bring when it is opened, not Postbox
    /// by itself (a peer that writes at once raced the first `updates.getState` and lost under load).
    static func startAndCatchUp(_ account: Account) async throws {
        account.start()
        try await wait("our account's first state", timeout: 60) { account.stateManager.hasCaughtUp }
    }

    /// `Account.importContact`, retried every 200 ms until Telethon has signed `phone` up (at most 60 s).
    static func introduceWhenSignedUp(phone: String, name: String, to account: Account) async throws -> PeerId {
        let deadline = Date().addingTimeInterval(60)
        while true {
            if let peer = try? await account.importContact(phone: phone, firstName: name) { return peer }
            try #require(Date() < deadline, "\(phone) did not sign up within 60 s")
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Runs `Tests/Fixtures/telethon/media_resources_peer.py` as `phone` against this server with `arguments`.
    func telethon(
        phone: String, target: String, _ arguments: [String], timeout: Double = 60
    ) throws
        -> Task<ProcessRunner.Result, any Error>
    {
        let python = ProcessRunner.venvPython
        try #require(FileManager.default.fileExists(atPath: python.path), "no .venv with Telethon: run `make deps`")
        let pem = root.path + "/server.pem"
        try server.writePublicKeyPEM(to: pem)
        let port = try #require(server.endpoints[2]?.port)
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/media_resources_peer.py")
        let all =
            [
                script.path, "--host", "127.0.0.1", "--port", String(port), "--pem-file", pem, "--phone", phone,
                "--target-phone", target, "--timeout", String(Int(timeout)),
            ] + arguments
        return Task { try await ProcessRunner.runOffPool(python, all, timeout: timeout + 30) }
    }

    /// Runs `body`; if it fails, records what the Telethon peer printed (awaited: it ends by its own deadline) and
    /// `account`'s update counters, so a missed wait says which side lost the message; then rethrows.
    static func explainingFailure<T>(
        of telethon: Task<ProcessRunner.Result, any Error>, and account: Account, _ body: () async throws -> T
    ) async throws -> T {
        do {
            return try await body()
        } catch {
            let statistics = account.stateManager.statistics
            let peer: String
            do {
                let result = try await telethon.value
                peer =
                    "status \(result.status), timed out \(result.timedOut): \(result.output) \(result.errorOutput.suffix(3000))"
            } catch {
                peer = "did not run: \(error)"
            }
            Issue.record("our account's updates: \(statistics); the Telethon peer: \(peer)")
            throw error
        }
    }

    func close(_ accounts: [Account]) async throws {
        for account in accounts { await account.shutdown() }
        try await server.close()
        root.remove()
    }

    /// Polls `condition` every 20 ms until it holds; records an issue and throws after `timeout` seconds.
    static func wait(_ what: String, timeout: Double = 20, _ condition: () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else {
                Issue.record("\(what): not within \(timeout) s")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Every value of `signal` and its error, once it has completed or failed (within `timeout` seconds).
    static func outcome<T: Sendable, E: Sendable>(
        _ signal: Signal<T, E>, timeout: Double = 20
    ) async throws -> (values: [T], error: E?) {
        let state = LockedValue<(values: [T], done: Bool, error: E?)>(([], false, nil))
        let disposable = signal.start(
            next: { value in state.withLock { $0.values.append(value) } },
            error: { error in
                state.withLock {
                    $0.error = error; $0.done = true
                }
            },
            completed: { state.withLock { $0.done = true } })
        defer { disposable.dispose() }
        try await wait("the Signal to end", timeout: timeout) { state.withLock { $0.done } }
        let final = state.withLock { $0 }
        return (final.values, final.error)
    }
}
