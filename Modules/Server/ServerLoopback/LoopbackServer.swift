public import AccountNetworking
public import Foundation
import MTProtoServer
public import ServerAPI

/// tg-server's application layer in the caller's process without its MTProto layer: a `ServerBackend` over a real
/// `ServerStore` in a temporary folder, answering `LoopbackNetwork`s. Clients on it run every rule of the server and
/// of TelegramCore above the transport, with no socket, event loop or key exchange (ServerTestSupport's BackendServer
/// is the same backend behind real MTProto connections).
///
/// `restart()` stops it as a killed tg-server stops — every session and push subscription gone, what is stored kept —
/// and starts a new backend on the same storage; each network's session ends as its socket would, and the network
/// comes back on a new session (`NetworkEvent.newSession`), as Telegram's clients come back from a DC restart.
///
/// `@unchecked Sendable`: the running backend and the networks are read and replaced under `lock`.
public final class LoopbackServer: @unchecked Sendable {
    public let directory: URL
    /// The storage every run starts on.
    private let bootstrap: BackendBootstrap
    private let lock = NSLock()
    private var running: Route
    private var networks: [Weak] = []

    /// What a call goes to: the backend now running, the gateway its pushes leave by, and how many restarts ago
    /// it started.
    struct Route {
        let run: BackendBootstrap.Running
        let epoch: Int

        var backend: ServerBackend { run.backend }
        var handler: ServerAPIHandler { run.handler }
        var gateway: UpdateGateway { run.updates }
    }

    private struct Weak {
        weak var network: LoopbackNetwork?
    }

    /// A backend for DCs 1–3; `flood` sets its sending budget (off by default), `clock` its time; its storage is a
    /// new directory under `parent`.
    public init(
        flood: FloodControl.Configuration = .init(messagesPerSecond: 0),
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        under parent: URL = FileManager.default.temporaryDirectory
    ) throws {
        directory = parent.appendingPathComponent("loopback-\(UUID().uuidString)")
        bootstrap = try BackendBootstrap(.init(directory: directory, flood: flood, clock: clock))
        running = Route(run: try bootstrap.start(), epoch: 0)
    }

    /// The backend now running.
    public var backend: ServerBackend { lock.withLock { running.backend } }

    /// How many times the server restarted.
    public var restarts: Int { lock.withLock { running.epoch } }

    var route: Route { lock.withLock { running } }

    /// A network to this server for the account whose keys `store` keeps; `pushes` sees every push before it is
    /// delivered (a simulation drops, repeats or holds some; nil delivers each at once).
    public func network(
        store: any NetworkKeyStore, defaultMainDc: Int32 = 2, pushes: LoopbackNetwork.PushFilter? = nil,
        calls: LoopbackNetwork.CallFilter? = nil,
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) -> LoopbackNetwork {
        let network = LoopbackNetwork(
            server: self, store: store, defaultMainDc: defaultMainDc, pushes: pushes, calls: calls, sleep: sleep)
        lock.withLock {
            networks.removeAll { $0.network == nil }
            networks.append(Weak(network: network))
        }
        return network
    }

    /// Stops the backend as a kill would and starts a new one on the same storage; every open network's session
    /// ends and comes back new. Throws what starting the new backend throws (the old one keeps serving then).
    public func restart() throws {
        let open = try lock.withLock { () throws -> [LoopbackNetwork] in
            running = Route(run: try bootstrap.start(), epoch: running.epoch + 1)
            return networks.compactMap(\.network)
        }
        for network in open { network.serverRestarted() }
    }

    /// Removes the server's folder.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
