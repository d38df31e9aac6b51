public import CryptoUtils
public import Foundation
public import Logging
public import MTProtoCore
import MTProtoTransport
public import NIOCore
import NIOPosix

/// The local MTProto server: one listener per data center on 127.0.0.1 (DC n on `basePort + n − 1`), a key store
/// in the data folder, sessions shared across connections, and an `RPCHandler` for API calls.
public final class MTProtoServer: Sendable {
    /// How to run the server.
    public struct Configuration: Sendable {
        public var host: String
        /// DC 1's port; 0 lets every DC pick a free port (tests).
        public var basePort: Int
        /// Each DC's port, DC 1's first, in place of `basePort`'s: a server started again where an earlier one on
        /// free ports listened, so its clients find it (tests of a restart). Empty: `basePort` decides.
        public var ports: [Int] = []
        public var dataCenterCount: Int
        public var dataDirectory: URL
        /// MTProxy secrets obfuscated2 clients may use (none: plain obfuscation only).
        public var proxySecrets: [[UInt8]]
        /// What clients may make the server hold.
        public var limits: ServerLimits
        /// `--trace`: where every session's calls, answers and pushes are written (none: no trace).
        public var trace: ServerTrace?
        /// The sessions' clock (seconds since 1970): msg_ids, time windows, salts. Tests move it on.
        public var clock: @Sendable () -> Double = { Date().timeIntervalSince1970 }
        /// The RSA key a data folder without one gets (a fresh one; test backends of one process share one, instead
        /// of each spending a key generation, ~0.15 s of CPU, as it starts).
        public var newRSAKey: @Sendable () throws -> RSAPrivateKey = ServerKeyStore.freshRSAKey

        public init(
            host: String = "127.0.0.1", basePort: Int = 0, dataCenterCount: Int = 3, dataDirectory: URL,
            proxySecrets: [[UInt8]] = [], limits: ServerLimits = ServerLimits(), trace: ServerTrace? = nil
        ) {
            self.trace = trace
            self.host = host
            self.basePort = basePort
            self.dataCenterCount = dataCenterCount
            self.dataDirectory = dataDirectory
            self.proxySecrets = proxySecrets
            self.limits = limits
        }
    }

    /// One listening data center.
    public struct DataCenter: Sendable, Equatable {
        public let id: Int32
        public let host: String
        public let port: Int

        public init(id: Int32, host: String, port: Int) {
            self.id = id
            self.host = host
            self.port = port
        }
    }

    public let dataCenters: [DataCenter]
    public let keys: ServerKeyStore
    public let sessions: SessionRegistry
    /// The salt of every key at every time (derived from the RSA key, never stored).
    public let salts: SaltSchedule
    /// Open connections over every data center, and how many were refused.
    public let connections: ConnectionGate
    public let keyExchangeWorkers: KeyExchangeWorkers
    /// The threads API calls run on.
    private let rpcWorkers: NIOThreadPool
    private let listeners: [TransportServer]
    private let sweeper: RepeatedTask

    private init(
        dataCenters: [DataCenter], keys: ServerKeyStore, sessions: SessionRegistry, salts: SaltSchedule,
        connections: ConnectionGate, workers: KeyExchangeWorkers, rpcWorkers: NIOThreadPool,
        listeners: [TransportServer],
        sweeper: RepeatedTask
    ) {
        self.rpcWorkers = rpcWorkers
        self.dataCenters = dataCenters
        self.salts = salts
        self.keys = keys
        self.sessions = sessions
        self.connections = connections
        self.keyExchangeWorkers = workers
        self.listeners = listeners
        self.sweeper = sweeper
    }

    /// Opens the key store, binds every data center, and serves with the handler `makeHandler` builds from the
    /// bound data centers (so `help.getConfig` can list their real ports). Connections are accepted only once that
    /// handler is in place: a client that reconnects the moment a restarted server binds its ports waits in the
    /// backlog rather than have its calls refused (400 `METHOD_NOT_IMPLEMENTED`, which no client retries). Logs go to `logger`, silent by default
    /// (tg-server passes its own). Connections subscribe their sessions to `updates`, through which the handler
    /// pushes.
    public static func start(
        _ configuration: Configuration, group: any EventLoopGroup,
        logger: Logger = Logger(label: "tg-server", factory: { _ in SwiftLogNoOpLogHandler() }),
        updates: UpdateGateway? = nil,
        makeHandler: @escaping @Sendable ([DataCenter]) -> any RPCHandler
    ) async throws -> MTProtoServer {
        let limits = configuration.limits
        let trace = configuration.trace
        let clock = configuration.clock
        let keys = try ServerKeyStore(
            directory: configuration.dataDirectory, unconfirmedLifetime: limits.unconfirmedKeyLifetime,
            maximumTemporaryKeys: limits.maximumTemporaryKeys, newRSAKey: configuration.newRSAKey)
        for path in keys.skippedFiles {
            logger.warning("skipped an unreadable auth key file", metadata: ["path": "\(path)"])
        }
        let salts = SaltSchedule(secret: Digest.sha256(keys.rsaKey.privateExponentBytes))
        let sessions = SessionRegistry(
            schedule: salts,
            maximumSessions: limits.maximumSessions, maximumSessionsPerKey: limits.maximumSessionsPerKey,
            lifetime: limits.sessionLifetime)
        let gate = ConnectionGate(
            maximum: limits.maximumConnections, maximumPerAddress: limits.maximumConnectionsPerAddress)
        let workers = KeyExchangeWorkers(
            workers: limits.keyExchangeWorkers, maximumQueued: limits.maximumQueuedKeyExchanges)
        let rpcWorkers = NIOThreadPool(numberOfThreads: max(1, limits.rpcWorkers))
        rpcWorkers.start()
        let handlerBox = HandlerBox()
        // Precomputed (a, g_a) pairs, shared by every listener and refilled in the background.
        let dhPool = DHPairPool(g: DHGroup.generator, prime: DHGroup.prime, capacity: 8)
        var listeners: [TransportServer] = []
        var dataCenters: [DataCenter] = []
        for index in 0..<configuration.dataCenterCount {
            let dcId = Int32(index + 1)
            let port =
                configuration.ports.indices.contains(index)
                ? configuration.ports[index] : configuration.basePort == 0 ? 0 : configuration.basePort + index
            let listener = try await TransportServer.start(
                host: configuration.host, port: port, group: group, secrets: configuration.proxySecrets,
                frameTimeout: .nanoseconds(Int64(limits.frameTimeout * 1e9)),
                writeBufferLowWaterMark: limits.writeBufferHighWaterMark / 4,
                writeBufferHighWaterMark: limits.writeBufferHighWaterMark, http: limits.http, accepting: false,
                admit: { channel in
                    // Admission as the connection is accepted: a silent connection holds its place from the start,
                    // and one past a cap is closed at once rather than when it first speaks (TransportServer tells
                    // it −429 in its framing if its first bytes came with it).
                    let address = channel.remoteAddress?.ipAddress ?? "?"
                    guard gate.admit(address) else {
                        logger.notice("refusing a connection (-429)", metadata: ["address": "\(address)"])
                        return false
                    }
                    channel.closeFuture.whenComplete { _ in gate.release(address) }
                    return true
                }
            ) { channel in
                return [
                    ServerConnectionHandler(
                        dcId: dcId, keys: keys, registry: sessions, handler: handlerBox.handler,
                        logger: logger, workers: workers, limits: limits, clock: clock, dhPool: dhPool,
                        updates: updates,
                        rpcWorkers: rpcWorkers,
                        trace: trace)
                ]
            }
            listeners.append(listener)
            dataCenters.append(DataCenter(id: dcId, host: configuration.host, port: listener.port))
        }
        handlerBox.set(makeHandler(dataCenters))
        for listener in listeners { try await listener.startAccepting() }
        for dc in dataCenters { logger.info("listening", metadata: ["dc": "\(dc.id)", "port": "\(dc.port)"]) }
        let interval = TimeAmount.nanoseconds(Int64(limits.sweepInterval * 1e9))
        let sweeper = group.next().scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            let now = Date().timeIntervalSince1970
            let (expired, unused) = keys.sweep(now: now)
            let idle = sessions.sweep(now: now) { keys.authKey(id: $0, now: now) != nil }
            if expired + unused + idle > 0 {
                logger.info(
                    "swept",
                    metadata: ["temporaryKeys": "\(expired)", "unusedKeys": "\(unused)", "sessions": "\(idle)"])
            }
        }
        return MTProtoServer(
            dataCenters: dataCenters, keys: keys, sessions: sessions, salts: salts, connections: gate, workers: workers,
            rpcWorkers: rpcWorkers,
            listeners: listeners, sweeper: sweeper)
    }

    /// Stops every listener, the sweeper and the key-exchange workers.
    public func close() async throws {
        sweeper.cancel()
        for listener in listeners { try await listener.close() }
        try await keyExchangeWorkers.shutdown()
        try await rpcWorkers.shutdownGracefully()
    }
}

/// Holds the RPC handler, which can only be built once the listeners know their ports.
/// `@unchecked Sendable`: set once before any connection is accepted, read under `lock`.
final class HandlerBox: @unchecked Sendable, RPCHandler {
    private let lock = NSLock()
    private var stored: (any RPCHandler)?

    var handler: any RPCHandler { self }

    func set(_ handler: any RPCHandler) {
        lock.lock()
        stored = handler
        lock.unlock()
    }

    func handle(_ call: RPCCall) -> RPCResponse {
        current()?.handle(call) ?? .notImplemented
    }

    private func current() -> (any RPCHandler)? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
