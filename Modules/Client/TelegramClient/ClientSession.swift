import CryptoUtils
import Foundation
public import MTProtoTransport
public import NIOCore
import NIOPosix
import Network
public import Postbox
import SwiftSignalKit
public import TelegramCore
import UpdateSequencing

/// The client's data under one root: its profiles (each account's name and server) and an `AccountManager` whose
/// network reaches the server of the account a command works with. Close it when done (`close()`).
/// `@unchecked Sendable`: the profiles and the opened accounts are read and written under `lock`.
public final class ClientSession: @unchecked Sendable {
    public let root: String
    /// The profiles as last loaded or saved.
    public var profiles: ClientProfiles { lock.withLock { storedProfiles } }
    private var storedProfiles: ClientProfiles
    private let lock = NSLock()
    public let manager: AccountManager
    /// The server this session's manager talks to, if any account has one.
    public let server: ServerAddress?
    /// The SOCKS5 proxy or MTProxy its connections go through, if any.
    public let proxy: ConnectionProxy?
    private let group: MultiThreadedEventLoopGroup
    private var opened: [Account] = []
    /// Notification-key registrations started by `onlineAccount` and not finished yet (changed under `lock`).
    private let pendingRegistrations = ValuePromise(0, ignoreRepeated: true)
    /// How long `close()` lets a registration still under way finish.
    static let registrationGrace: Double = 3

    /// Opens `root` with the network of `server` (with its `publicKeyPEM`); without them, of the account `name` (or
    /// the current account) as stored in the profiles — through `proxy` when given, else through the proxy of the
    /// profile the server came from.
    public init(
        root: String, accountName: String? = nil, server: ServerAddress? = nil, publicKeyPEM: String? = nil,
        proxy: ConnectionProxy? = nil
    ) throws(ClientError) {
        self.root = root
        let profiles = try ClientProfiles.load(root: root)
        storedProfiles = profiles
        var address = server
        var pem = publicKeyPEM
        var proxy = proxy
        if address == nil || pem == nil {
            let known = try Self.lookUp(root: root, profiles: profiles, name: accountName, required: false)
            if address == nil { proxy = proxy ?? known?.proxy }
            address = address ?? known?.server
            pem = pem ?? known?.publicKeyPEM
        }
        self.server = address
        self.proxy = proxy
        var keys: [RSAPublicKey] = []
        if let pem {
            do { keys = [try RSAPublicKey(pem: pem)] } catch {
                throw .badInput(
                    "the server key is not a PEM RSA public key (\(error)) — use 'tg-server --print-public-key'")
            }
        }
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let environment = NetworkEnvironment(
            datacenters: (address?.endpoints ?? [:]).mapValues { endpoint in
                var endpoint = endpoint
                endpoint.proxy = proxy
                return endpoint
            }, defaultMainDc: address?.defaultMainDc ?? 2, publicKeys: keys,
            group: group)
        do {
            manager = try AccountManager(
                rootPath: root, environment: environment, stateConfiguration: .init(gapWait: 0.5))
        } catch {
            try? group.syncShutdownGracefully()
            throw .storage(error.description)
        }
    }

    /// The profile `name` names, or the current account's; `nil` (or `.notLoggedIn` when `required`) if none.
    static func lookUp(
        root: String, profiles: ClientProfiles, name: String?, required: Bool
    ) throws(ClientError) -> ClientAccount? {
        if let name {
            guard let account = profiles.account(named: name) else {
                let known = profiles.accounts.map(\.name).joined(separator: ", ")
                throw .notLoggedIn(
                    "no account named '\(name)' (known: \(known.isEmpty ? "none" : known)) — run 'tg login --account \(name)'"
                )
            }
            return account
        }
        if let current = Self.currentId(root: root), let account = profiles.account(id: current) { return account }
        if required { throw .notLoggedIn("no account is logged in under \(root) — run 'tg login'") }
        return nil
    }

    /// The account manager's current account, read without opening it.
    static func currentId(root: String) -> Int64? {
        AccountManager.storedCurrentAccountId(rootPath: root)?.rawValue
    }

    /// The profile a command works with: `name`'s, or the current account's.
    public func profile(named name: String?) throws(ClientError) -> ClientAccount {
        guard let profile = try Self.lookUp(root: root, profiles: profiles, name: name, required: true) else {
            throw .notLoggedIn("no account is logged in under \(root) — run 'tg login'")
        }
        return profile
    }

    /// Saves `change` applied to the profiles.
    public func updateProfiles(_ change: (inout ClientProfiles) -> Void) throws(ClientError) {
        let changed = lock.withLock {
            change(&storedProfiles)
            return storedProfiles
        }
        try changed.save(root: root)
    }

    /// Opens the signed-in account `name` (or the current one) without starting it.
    public func account(named name: String?) throws(ClientError) -> Account {
        let profile = try profile(named: name)
        guard server == profile.server else {
            throw .badInput(
                "account '\(profile.name)' talks to \(profile.server), not \(server.map { "\($0)" } ?? "no server")")
        }
        let account: Account
        do {
            account = try manager.account(AccountRecordId(rawValue: profile.id))
        } catch {
            throw .notLoggedIn(
                "account '\(profile.name)': \(error.description) — run 'tg login --account \(profile.name)'")
        }
        lock.withLock { opened.append(account) }
        return account
    }

    /// Opens and starts account `name` (or the current one) and waits until it has caught up with the server (its
    /// first `getState` or difference applied): `.unreachable` after `timeout` seconds, `.notLoggedIn` when the
    /// server no longer knows the authorization. Started with `start(_:)`, so its notification key is registered
    /// again.
    public func onlineAccount(named name: String?, timeout: Double) async throws(ClientError) -> Account {
        let account = try account(named: name)
        start(account)
        try await Self.waitUntilOnline(account, timeout: timeout)
        return account
    }

    /// Starts `account` (catching up and listening) and registers its notification key again
    /// (`registerForNotifications`) — what every client start does, the scripted commands and the interactive one.
    public func start(_ account: Account) {
        account.start()
        registerForNotifications(account)
    }

    /// Registers `account`'s notification key for this installation's push token again, as Telegram's app does at
    /// each start (the token, or what the server kept, may have changed since sign-in): in the background, while the
    /// command goes on; `close()` gives it `registrationGrace` seconds. A failure — no key, the server refusing or
    /// not answering — is ignored: the command never fails for it, and the next start tries again.
    func registerForNotifications(_ account: Account) {
        let manager = self.manager
        countRegistrations(+1)
        Task {
            _ = await manager.registerForNotifications(account)
            countRegistrations(-1)
        }
    }

    private func countRegistrations(_ change: Int) {
        lock.withLock { pendingRegistrations.set((pendingRegistrations.value ?? 0) + change) }
    }

    /// Waits for `account` (started) to catch up; see `onlineAccount`.
    /// Woken by the state manager's `isCaughtUp` and the network's `loggedOut`.
    public static func waitUntilOnline(_ account: Account, timeout: Double) async throws(ClientError) {
        try await firstResult(
            "the server answering", of: combineLatest(account.stateManager.isCaughtUp, account.loggedOut),
            timeout: timeout,
            timedOut: .unreachable(
                "the server did not answer within \(Int(timeout)) s — check that it is running (address in 'tg accounts')"
            )
        ) { state throws(ClientError) -> Void? in
            let (caughtUp, loggedOut) = state
            if caughtUp { return () }
            if loggedOut {
                throw .notLoggedIn("the server ended this account's authorization — run 'tg login' again")
            }
            return nil
        }
    }

    /// Logs account `name` (or the current one) out — the server is told (`auth.logOut`), its folder, key and profile
    /// go — or drops a sign-in that never finished; returns the name.
    public func logOut(named name: String?) async throws(ClientError) -> String {
        let profile = try profile(named: name)
        let id = AccountRecordId(rawValue: profile.id)
        do {
            if manager.records.first(where: { $0.id == id })?.kind == .unauthorized {
                try await manager.remove(manager.unauthorizedAccount(id))
            } else if manager.records.contains(where: { $0.id == id }) {
                let account = try account(named: profile.name)
                lock.withLock { opened.removeAll { $0 === account } }
                try await manager.logOut(account)
            }
        } catch let error as AccountManager.Failure {
            throw .storage(error.description)
        } catch let error as ClientError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
        try updateProfiles { $0.remove(id: profile.id) }
        return profile.name
    }

    /// Stops every account this session opened (after letting a notification-key registration still under way finish,
    /// `registrationGrace` at most) and the network threads.
    public func close() async {
        _ = try? await firstValue(
            "the notification-key registration", of: pendingRegistrations.get(), timeout: Self.registrationGrace,
            where: { $0 == 0 })
        let accounts = lock.withLock {
            let accounts = opened
            opened = []
            return accounts
        }
        for account in accounts { await account.shutdown() }
        try? await group.shutdownGracefully()
    }
}

extension ClientSession {
    /// Tries `proxy` against the main DC of account `name` (or the current one): a SOCKS5 tunnel opened and closed
    /// (the proxy's refusal by its RFC name: a wrong password, a target it will not reach); through an MTProxy, a
    /// key exchange with the server (the secret and the relay both proven) — else `.unreachable`.
    public func checkProxy(
        _ proxy: ConnectionProxy, forAccount name: String?, timeout: Double
    ) async throws(ClientError) {
        let profile = try profile(named: name)
        guard var endpoint = profile.server.endpoints[profile.server.defaultMainDc] else {
            throw .badInput("account '\(profile.name)' has no server address")
        }
        do {
            switch proxy {
            case .socks5(let socks):
                let channel = try await TransportClient.connect(
                    host: endpoint.host, port: endpoint.port, framing: endpoint.framing, proxy: socks, group: group,
                    connectTimeout: .milliseconds(Int64(timeout * 1000))
                ) { _ in [] }
                try? await channel.close()
            case .mtproxy:
                endpoint.proxy = proxy
                let target = endpoint
                let keys = try [RSAPublicKey(pem: profile.publicKeyPEM)]
                let group = self.group
                let attempt = Signal<Result<MTProtoConnection, ClientError>, NoError> { subscriber in
                    let task = Task {
                        do {
                            let connection = try await MTProtoConnection.connect(
                                to: target, publicKeys: keys, group: group)
                            if Task.isCancelled {
                                await connection.close()
                            } else {
                                subscriber.putNext(.success(connection))
                            }
                        } catch {
                            subscriber.putNext(.failure(.unreachable("through \(proxy): \(error)")))
                        }
                    }
                    return ActionDisposable { task.cancel() }
                }
                let connection = try await firstResult(
                    "a key exchange with the server through \(proxy)", of: attempt, timeout: timeout
                ) { (result) throws(ClientError) in try result.get() }
                await connection.close()
            }
        } catch let error as ClientError {
            throw error
        } catch let failure as SOCKS5Handshake.Failure {
            throw .unreachable("through \(proxy): \(failure)")
        } catch {
            throw .unreachable("through \(proxy): \(error)")
        }
    }
}
