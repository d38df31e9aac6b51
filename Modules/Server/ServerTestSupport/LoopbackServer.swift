public import Foundation
public import MTProtoServer
public import Network
public import ServerAPI
import ServerStore

/// tg-server's application layer in the test's own process without its MTProto layer: a `ServerBackend` over a real
/// `ServerStore` in a temporary folder, answering `LoopbackNetwork`s. Clients on it run every rule of the server and
/// of TelegramCore above the transport, with no socket, event loop or key exchange (BackendServer is the same backend
/// behind real MTProto connections).
public final class LoopbackServer: Sendable {
    public let directory: URL
    public let backend: ServerBackend
    public let gateway: UpdateGateway
    private let handler: ServerAPIHandler

    /// A backend for DCs 1–3; `flood` sets its sending budget (off by default).
    public init(flood: FloodControl.Configuration = .init(messagesPerSecond: 0)) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("loopback-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try ServerStore(path: directory.appendingPathComponent("server.sqlite").path)
        gateway = UpdateGateway()
        let dataCenters = (1...3).map { MTProtoServer.DataCenter(id: Int32($0), host: "127.0.0.1", port: 0) }
        backend = ServerBackend(
            store: store, files: try FileVault(directory: directory), updates: gateway, dataCenters: dataCenters,
            flood: FloodControl(flood))
        handler = ServerAPIHandler(backend: backend)
    }

    /// A network to this server for the account whose keys `store` keeps.
    public func network(store: any NetworkKeyStore, defaultMainDc: Int32 = 2) -> LoopbackNetwork {
        LoopbackNetwork(handler: handler, gateway: gateway, store: store, defaultMainDc: defaultMainDc)
    }

    /// Removes the server's folder.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
