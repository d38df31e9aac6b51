public import CryptoUtils
public import Foundation
public import MTProtoServer
import NIOCore
public import NIOPosix
public import Network
public import ServerAPI
import ServerStore
public import TelegramApi

/// A tg-server backend in the test's own process (MTProtoServer over a real ServerStore in a temporary folder, DCs
/// 1–3 on free ports of 127.0.0.1), with what the client tests need around it: endpoints, the public key, sign-up.
public final class BackendServer: @unchecked Sendable {
    public let group: MultiThreadedEventLoopGroup
    public let directory: URL
    public let server: MTProtoServer
    /// Each DC's address for our client.
    public let endpoints: [Int32: MTProtoConnection.Endpoint]

    /// Starts the server; `flood` sets its sending budget and test floods (the default has the budget off);
    /// `stickerSet` stores and serves tg-server's own sticker set, as tg-server does at start; `limits` are the
    /// server's bounds (timeouts, caps); `pushDirectory` is tg-server's `--push-dir`.
    public init(
        flood: FloodControl.Configuration = .init(messagesPerSecond: 0), stickerSet: Bool = false, limits: ServerLimits = ServerLimits(),
        pushDirectory: URL? = nil
    ) async throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("backend-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try ServerStore(path: directory.appendingPathComponent("server.sqlite").path)
        let files = try FileVault(directory: directory)
        let gateway = UpdateGateway()
        let control = FloodControl(flood)
        let stickerError = FirstError()
        server = try await MTProtoServer.start(.init(dataDirectory: directory, limits: limits), group: group, updates: gateway) {
            let backend = ServerBackend(
                store: store, files: files, updates: gateway, dataCenters: $0, flood: control, pushDirectory: pushDirectory)
            if stickerSet {
                do { try backend.prepareStickerSet() } catch { stickerError.record(error) }
            }
            return ServerAPIHandler(backend: backend)
        }
        if let error = stickerError.error {
            try? await server.close()
            throw error
        }
        var endpoints: [Int32: MTProtoConnection.Endpoint] = [:]
        for dc in server.dataCenters { endpoints[dc.id] = .init(host: "127.0.0.1", port: dc.port, dcId: dc.id) }
        self.endpoints = endpoints
    }

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
        try await group.shutdownGracefully()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Signs up a test number (`99966XYYYY`, code X five times) on `connection`, which must be on the number's DC;
    /// returns the new account's user.
    public static func signUp(_ connection: MTProtoConnection, phone: String, name: String) async throws -> Api.User {
        let sent = try await connection.invoke(
            Api.functions.auth.sendCode(phoneNumber: phone, apiId: 1, apiHash: "", settings: .codeSettings(.init())))
        guard case .sentCode(let code) = sent else { throw CancellationError() }
        let digit = String(Array(phone)[5])
        let signIn = try await connection.invoke(
            Api.functions.auth.signIn(phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, phoneCode: String(repeating: digit, count: 5)))
        guard case .authorizationSignUpRequired = signIn else { throw CancellationError() }
        let signUp = try await connection.invoke(
            Api.functions.auth.signUp(phoneNumber: phone, phoneCodeHash: code.phoneCodeHash, firstName: name, lastName: ""))
        guard case .authorization(let authorization) = signUp else { throw CancellationError() }
        return authorization.user
    }
}


/// The first error a handler factory met (it cannot throw), for `init` to throw once the server has started.
private final class FirstError: @unchecked Sendable {
    private let lock = NSLock()
    private var first: (any Error)?

    func record(_ error: any Error) { lock.withLock { if first == nil { first = error } } }
    var error: (any Error)? { lock.withLock { first } }
}
