public import CryptoUtils
public import Foundation
public import MTProtoServer
import NIOCore
public import NIOPosix
public import Network
public import ServerAPI
public import ServerStore
public import TelegramApi

/// A tg-server backend in the test's own process (MTProtoServer over a real ServerStore in a temporary folder, DCs
/// 1–3 on free ports of 127.0.0.1), with what the client tests need around it: endpoints, the public key, sign-up.
/// A `restartable` one runs its connections on event loops of its own, so `restart()` can end them all as a killed
/// tg-server's end, and start a new server on the same folder and ports.
///
/// `@unchecked Sendable`: `server` and the server's event loops are replaced only by `restart()`, under `lock`.
public final class BackendServer: @unchecked Sendable {
    /// The event loops for clients (and, unless `restartable`, the server's too).
    public let group: MultiThreadedEventLoopGroup
    public let directory: URL
    /// The server now running (a new one after each `restart()`).
    public var server: MTProtoServer { lock.withLock { running } }
    /// Each DC's address for our client.
    public let endpoints: [Int32: MTProtoConnection.Endpoint]
    private let lock = NSLock()
    private var running: MTProtoServer
    /// The server's own event loops when `restartable` (nil: it shares `group`).
    private var serverGroup: MultiThreadedEventLoopGroup?
    /// What a restart starts the server with again: the data stays, what the server held in memory goes.
    private let bootstrap: BackendBootstrap
    private let limits: ServerLimits
    private let clock: @Sendable () -> Double

    /// The RSA key every backend of this process starts with: one generation per test process, not one per test
    /// (over a hundred live tests start backends at once, each ~0.15 s of CPU on key generation alone).
    public static let processKey = Result { try RSAPrivateKey.generate(bits: 2048) }

    /// Starts the server; `flood` sets its sending budget and test floods (the default has the budget off);
    /// `stickerSet` stores and serves tg-server's own sticker set, as tg-server does at start; `limits` are the
    /// server's bounds (timeouts, caps); `pushDirectory` is tg-server's `--push-dir`; `restartable` allows `restart()`;
    /// `channelDifferenceGap` is tg-server's `--channel-difference-gap`; `clock` is its sessions' clock (msg_ids, time
    /// windows, salts), for tests that move time on; `webPageAllow` names the `host:port` pairs link previews are
    /// fetched from (tg-server `--webpage-allow`; none by default).
    public init(
        flood: FloodControl.Configuration = .init(messagesPerSecond: 0), stickerSet: Bool = false,
        limits: ServerLimits = ServerLimits(),
        pushDirectory: URL? = nil, restartable: Bool = false,
        channelDifferenceGap: Int64 = ServerBackend.defaultChannelDifferenceGap,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        webPageAllow: Set<String> = []
    ) async throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        serverGroup = restartable ? MultiThreadedEventLoopGroup(numberOfThreads: 2) : nil
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("backend-\(UUID().uuidString)")
        bootstrap = try BackendBootstrap(
            .init(
                directory: directory, flood: flood, stickerSet: stickerSet ? .required : .notServed,
                pushDirectory: pushDirectory, channelDifferenceGap: channelDifferenceGap,
                webPages: WebPageRules(allowed: webPageAllow)))
        self.limits = limits
        self.clock = clock
        var configuration = MTProtoServer.Configuration(dataDirectory: directory, limits: limits)
        configuration.clock = clock
        configuration.newRSAKey = { try Self.processKey.get() }
        running = try await bootstrap.startServer(configuration, group: serverGroup ?? group)
        var endpoints: [Int32: MTProtoConnection.Endpoint] = [:]
        for dc in running.dataCenters { endpoints[dc.id] = .init(host: "127.0.0.1", port: dc.port, dcId: dc.id) }
        self.endpoints = endpoints
    }

    /// Stops the server as a kill would — every connection closed, every session and push subscription gone — and
    /// starts a new one on the same folder (keys, accounts, messages) and the same ports. Needs `restartable`.
    public func restart() async throws {
        guard let old = lock.withLock({ serverGroup }) else { throw CancellationError() }
        let ports = server.dataCenters.map(\.port)
        try await server.close()
        // Shutting the server's loops down closes every connection they carry.
        try await old.shutdownGracefully()
        let fresh = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        var configuration = MTProtoServer.Configuration(dataDirectory: directory, limits: limits)
        configuration.ports = ports
        configuration.clock = clock
        let restarted = try await bootstrap.startServer(configuration, group: fresh)
        lock.withLock {
            serverGroup = fresh
            running = restarted
        }
    }

    /// The server's database (what a benchmark or test counts or fills directly).
    public var store: ServerStore { bootstrap.store }

    /// Writes the server's public key as PKCS#1 PEM (what Telethon's `rsa.add_key` reads) to `path`.
    public func writePublicKeyPEM(to path: String) throws {
        try server.keys.rsaKey.publicKeyPEM().write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The server's RSA public key, for clients.
    public var publicKeys: [RSAPublicKey] { [server.keys.rsaKey.publicKey] }

    /// A new connection (and key) to `dc`.
    public func connect(dc: Int32 = 2) async throws -> MTProtoConnection {
        guard let endpoint = endpoints[dc] else { throw CancellationError() }
        return try await MTProtoConnection.connect(to: endpoint, publicKeys: publicKeys, group: group)
    }

    /// Stops the server and removes its folder.
    public func close() async throws {
        try await server.close()
        if let serverGroup = lock.withLock({ serverGroup }) { try await serverGroup.shutdownGracefully() }
        try await group.shutdownGracefully()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Signs up a test number (`99966XYYYY`, code X five times) on `connection`, which must be on the number's DC;
    /// returns the new account's user.
    public static func signUp(_ connection: some RawClient, phone: String, name: String) async throws -> Api.User {
        let sent = try await connection.invoke(
            Api.functions.auth.sendCode(phoneNumber: phone, apiId: 1, apiHash: "", settings: .codeSettings(.init())))
        guard case .sentCode(let code) = sent else { throw CancellationError() }
        let digit = String(Array(phone)[5])
        let signIn = try await connection.invoke(
            Api.functions.auth.signIn(
                phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, phoneCode: String(repeating: digit, count: 5)))
        guard case .authorizationSignUpRequired = signIn else { throw CancellationError() }
        let signUp = try await connection.invoke(
            Api.functions.auth.signUp(
                phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, firstName: name, lastName: ""))
        guard case .authorization(let authorization) = signUp else { throw CancellationError() }
        return authorization.user
    }
}
