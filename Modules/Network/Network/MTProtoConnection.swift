public import AccountNetworking
public import CryptoUtils
public import Foundation
public import MTProtoCore
public import MTProtoTransport
public import NIOCore
public import SwiftSignalKit
public import TLRuntime
import TelegramApi

/// A client connection to one data center: TCP with a chosen framing and obfuscation, an auth key (created, or
/// reused from an earlier connection), a session, and requests answered as Signals or async values.
///
/// The first request is wrapped in `invokeWithLayer(229, initConnection(…))`, as every Telegram client does.
/// `@unchecked Sendable`: the mutable state lives in the channel's handler, reached only on its event loop (through
/// `NIOLoopBound`, which checks that); the `initialized` flag is guarded by `lock`.
public final class MTProtoConnection: @unchecked Sendable {
    /// Where and how to connect.
    public struct Endpoint: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var dcId: Int32
        public var framing: TransportFraming
        public var obfuscation: TransportObfuscation
        /// MTProto over HTTP (`POST /api`) instead of a TCP framing.
        public var http: Bool
        /// A SOCKS5 proxy or an MTProxy the connection goes through (nil: straight to `host:port`).
        public var proxy: ConnectionProxy?

        public init(
            host: String, port: Int, dcId: Int32 = 2, framing: TransportFraming = .abridged,
            obfuscation: TransportObfuscation = .none, http: Bool = false, proxy: ConnectionProxy? = nil
        ) {
            self.host = host
            self.port = port
            self.dcId = dcId
            self.framing = framing
            self.obfuscation = obfuscation
            self.http = http
            self.proxy = proxy
        }
    }

    /// What `initConnection` tells the server about this client.
    public struct ClientInfo: Sendable {
        public var apiId: Int32 = 1
        public var deviceModel = "Telegraph"
        public var systemVersion = "Linux"
        public var appVersion = "0.1"
        public var langCode = "en"
        public var layer: Int32 = 229

        public init() {}

        /// The first request of a session: `function` inside `invokeWithLayer(layer, initConnection(…))`, encoded.
        public func firstRequest<F: TLFunction>(_ function: F) throws(TLEncodingError) -> [UInt8] {
            try Api.functions.invokeWithLayer(
                layer: layer,
                query: Api.functions.initConnection(
                    apiId: apiId, deviceModel: deviceModel, systemVersion: systemVersion, appVersion: appVersion,
                    systemLangCode: langCode, langPack: "", langCode: langCode, query: function)
            ).encoded()
        }
    }

    public let endpoint: Endpoint
    /// The key in use, with the salt and clock offset of its exchange: save it to reconnect without a new exchange.
    public let key: AuthKeyExchangeResult
    private let channel: any Channel
    private let handler: NIOLoopBound<ClientConnectionHandler>
    private let info: ClientInfo
    private let clock: @Sendable () -> Double
    private let lock = NSLock()
    private var initialized = false
    /// Messages the server sent on its own (serialized `Updates`, core.telegram.org "Working with updates"), in
    /// arrival order; the newest 10,000 are kept for a reader that falls behind. Finishes when the connection closes.
    public let updates: AsyncStream<[UInt8]>
    private let updatesContinuation: AsyncStream<[UInt8]>.Continuation

    private init(
        endpoint: Endpoint, key: AuthKeyExchangeResult, channel: any Channel,
        handler: NIOLoopBound<ClientConnectionHandler>, info: ClientInfo, clock: @escaping @Sendable () -> Double,
        updates: (stream: AsyncStream<[UInt8]>, continuation: AsyncStream<[UInt8]>.Continuation)
    ) {
        self.endpoint = endpoint
        self.key = key
        self.channel = channel
        self.handler = handler
        self.info = info
        self.clock = clock
        self.updates = updates.stream
        self.updatesContinuation = updates.continuation
    }

    /// Connects, then creates an auth key trusting `publicKeys` — or reuses `savedKey`. With
    /// `temporaryKeyLifetime` (seconds) the new key is a temporary one (core.telegram.org "Perfect Forward Secrecy"),
    /// to be bound to a permanent key with `bindTemporaryKey(to:expiresAt:)`. An exchange that yields no key within
    /// `keyExchangeTimeout` seconds fails with `NetworkError.timedOut`, and so does a call with no answer within
    /// `answerTimeout` seconds; the TCP connect (and a SOCKS5 proxy's handshake) gets `connectTimeout` seconds.
    public static func connect(
        to endpoint: Endpoint, publicKeys: [RSAPublicKey], savedKey: AuthKeyExchangeResult? = nil,
        group: any EventLoopGroup, info: ClientInfo = ClientInfo(), temporaryKeyLifetime: Int32? = nil,
        keyExchangeTimeout: Double = 30, answerTimeout: Double = 60, connectTimeout: Double = 10,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) async throws -> MTProtoConnection {
        let updates = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(10_000))
        let route = endpoint.route
        let channel = try await TransportClient.connect(
            host: route.host, port: route.port, framing: route.framing, obfuscation: route.obfuscation,
            http: route.http, proxy: route.socks5, group: group,
            connectTimeout: .nanoseconds(Int64(max(0.001, connectTimeout) * 1e9))
        ) { _ in
            [
                ClientConnectionHandler(
                    clock: clock, answerTimeout: answerTimeout, onUpdate: { updates.continuation.yield($0) })
            ]
        }
        channel.closeFuture.whenComplete { _ in updates.continuation.finish() }
        // The handler is not Sendable: it is looked up, and every call into it is made, on the channel's event loop.
        let loop = channel.eventLoop
        // A socket the server closed at once has lost its handlers by now: that is a closed connection.
        let handler = try await loop.submit { () throws(NetworkError) in
            do {
                return NIOLoopBound(
                    try channel.pipeline.syncOperations.handler(type: ClientConnectionHandler.self), eventLoop: loop)
            } catch {
                throw .connectionClosed
            }
        }.get()
        do {
            let key: AuthKeyExchangeResult
            if let savedKey {
                key = savedKey
            } else {
                let dcId = endpoint.dcId
                key = try await loop.flatSubmit {
                    handler.value.createKey(
                        AuthKeyClientExchange(
                            publicKeys: publicKeys, dcId: dcId, dhPools: AuthKeyClientExchange.verifiedGroupPool,
                            temporaryLifetime: temporaryKeyLifetime),
                        timeout: keyExchangeTimeout)
                }.get()
            }
            try await loop.submit {
                handler.value.startSession(
                    ClientSession(authKey: key.authKey, salt: key.serverSalt, timeOffset: key.timeOffset))
            }.get()
            return MTProtoConnection(
                endpoint: endpoint, key: key, channel: channel, handler: handler, info: info, clock: clock,
                updates: updates)
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// Sends a request's bytes and returns the result's bytes (an `rpc_error` throws `NetworkError.rpc`).
    public func invokeRaw(_ body: [UInt8]) async throws -> [UInt8] {
        let handler = self.handler
        return try await channel.eventLoop.flatSubmit { handler.value.send(body) }.get()
    }

    /// Calls an API or MTProto function and decodes its result.
    public func invoke<F: TLFunction>(_ function: F) async throws -> F.Result {
        let bytes = try await invokeRaw(try wrapIfFirst(function))
        var reader = TLReader(bytes)
        do {
            return try F.parseResult(&reader)
        } catch {
            throw NetworkError.malformedResult("\(function.functionName): \(error)")
        }
    }

    /// The request as a cold Signal: each subscription sends it once; disposing abandons the answer.
    public func request<F: TLFunction>(_ function: F) -> Signal<F.Result, NetworkError> where F.Result: Sendable {
        Signal { () async throws(NetworkError) -> F.Result in
            do {
                return try await self.invoke(function)
            } catch let error as NetworkError {
                throw error
            } catch {
                throw NetworkError.connectionClosed
            }
        }
    }

    /// Binds this connection's temporary key to `permanentKey` with `auth.bindTempAuthKey` (core.telegram.org
    /// "Perfect Forward Secrecy"): from then on the server treats calls on this connection as made with the permanent
    /// key (its authorization, its updates) until `expiresAt` (Unix time) or the temporary key's own expiry.
    public func bindTemporaryKey(to permanentKey: AuthKey, expiresAt: Int32) async throws {
        let handler = self.handler
        let temporaryKeyId = key.authKey.id
        let nonce = Int64(bitPattern: SecureRandom.uint64())
        let first = takeFirst()
        let bytes = try await channel.eventLoop.flatSubmit { () -> EventLoopFuture<[UInt8]> in
            guard let sessionId = handler.value.session?.sessionId else {
                return handler.value.send([])
            }
            return handler.value.send { messageId -> [UInt8] in
                let call = Api.functions.auth.bindTempAuthKey(
                    permAuthKeyId: permanentKey.id, nonce: nonce, expiresAt: expiresAt,
                    encryptedMessage: TemporaryKeyBinding.seal(
                        .init(
                            nonce: nonce, temporaryKeyId: temporaryKeyId, permanentKeyId: permanentKey.id,
                            temporarySessionId: sessionId, expiresAt: expiresAt),
                        permanentKey: permanentKey, messageId: messageId))
                // A body TL cannot carry is impossible here (fixed-size fields, a 104-byte message).
                return (try? (first ? self.wrapped(call) : call.encoded())) ?? []
            }
        }.get()
        var reader = TLReader(bytes)
        guard (try? reader.readBool()) == true else {
            throw NetworkError.malformedResult("auth.bindTempAuthKey: expected boolTrue")
        }
    }

    /// Whether the next request is the connection's first (and marks it taken).
    private func takeFirst() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let first = !initialized
        initialized = true
        return first
    }

    /// The first request of a connection goes inside invokeWithLayer(initConnection(…)).
    private func wrapIfFirst<F: TLFunction>(_ function: F) throws(NetworkError) -> [UInt8] {
        lock.lock()
        let first = !initialized
        initialized = true
        lock.unlock()
        do {
            guard first else { return try function.encoded() }
            return try wrapped(function)
        } catch {
            throw .encoding(error)
        }
    }

    private func wrapped<F: TLFunction>(_ function: F) throws(TLEncodingError) -> [UInt8] {
        try info.firstRequest(function)
    }

    /// The session's server salt in use now and its clock correction (seconds the server is ahead), as corrected
    /// by `bad_server_salt`, `bad_msg_notification` and `future_salts` since the connection opened.
    public func sessionState() async throws -> (salt: Int64, timeOffset: Double) {
        let handler = self.handler
        let clock = self.clock
        return try await channel.eventLoop.submit { () -> (Int64, Double) in
            guard let session = handler.value.session else { return (0, 0) }
            return (session.salts.current(now: clock() + session.timeOffset), session.timeOffset)
        }.get()
    }

    /// Closes the connection; pending requests fail with `connectionClosed`.
    public func close() async {
        try? await channel.close()
        updatesContinuation.finish()
    }
}
