import AccountNetworking
import CryptoUtils
import Foundation
import MTProtoApi
import MTProtoCore
import MTProtoServer
import MTProtoTransport
import NIOCore
import NIOPosix
import Network
import ServerAPI
import ServerTestSupport
import SwiftSignalKit
import TLRuntime
import TelegramApi
import Testing

/// Our client against our server over real loopback sockets: every framing, with and without obfuscation; key
/// reuse; the salt and clock corrections the session performs by itself; an unknown key.
@Suite(.serialized) struct MTProtoConnectionTests {
    /// A server on free ports with a temporary data folder.
    final class Fixture {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("net-\(UUID().uuidString)")
        var server: MTProtoServer!

        func start() async throws -> MTProtoServer {
            var configuration = MTProtoServer.Configuration(dataDirectory: directory)
            configuration.newRSAKey = { try BackendServer.processKey.get() }
            server = try await MTProtoServer.start(configuration, group: group) {
                ServerAPIHandler(dataCenters: $0)
            }
            return server
        }

        func stop() async throws {
            try await server.close()
            try await group.shutdownGracefully()
            try? FileManager.default.removeItem(at: directory)
        }

        func endpoint(_ framing: TransportFraming, _ obfuscation: TransportObfuscation = .none) -> MTProtoConnection.Endpoint {
            MTProtoConnection.Endpoint(host: "127.0.0.1", port: server.dataCenters[1].port, dcId: 2, framing: framing, obfuscation: obfuscation)
        }
    }

    static let endpoints: [(TransportFraming, TransportObfuscation)] = [
        (.full, .none), (.abridged, .none), (.intermediate, .none), (.paddedIntermediate, .none),
        (.abridged, .obfuscated2(dcId: 2)), (.intermediate, .obfuscated2(dcId: 2)),
        (.paddedIntermediate, .obfuscated2(dcId: 2)),
    ]

    @Test func everyTransportCreatesAKeyAndReusesIt() async throws {
        let fixture = Fixture()
        let server = try await fixture.start()
        let keys = [server.keys.rsaKey.publicKey]
        for (framing, obfuscation) in Self.endpoints {
            let label = "\(framing) \(obfuscation)"
            let connection = try await MTProtoConnection.connect(to: fixture.endpoint(framing, obfuscation), publicKeys: keys, group: fixture.group)
            // One-constructor types: the switches are exhaustive, so nothing can pass on a wrong path.
            switch try await connection.invoke(Api.functions.help.getConfig()) {
            case .config(let config):
                #expect(config.thisDc == 2, "\(label)")
                #expect(config.dcOptions.count == 6, "\(label)")  // three DCs, each also as media-only
            }
            switch try await connection.invoke(MTProto.functions.ping(pingId: 77)) {
            case .pong(let value): #expect(value.pingId == 77, "\(label)")
            }
            await #expect(throws: NetworkError.rpc(code: 400, message: "METHOD_NOT_IMPLEMENTED")) {
                _ = try await connection.invoke(Api.functions.help.getAppConfig(hash: 0))
            }
            await connection.close()
            // Reconnect with the saved key: no new exchange, same key id on the server.
            let before = server.keys.authKeyCount
            let again = try await MTProtoConnection.connect(
                to: fixture.endpoint(framing, obfuscation), publicKeys: keys, savedKey: connection.key, group: fixture.group)
            switch try await again.invoke(Api.functions.help.getNearestDc()) {
            case .nearestDc(let nearest): #expect(nearest.thisDc == 2, "\(label)")
            }
            #expect(server.keys.authKeyCount == before, "\(label)")
            await again.close()
        }
        #expect(server.keys.authKeyCount == Self.endpoints.count)
        try await fixture.stop()
    }

    @Test func requestsAreSignals() async throws {
        let fixture = Fixture()
        let server = try await fixture.start()
        let connection = try await MTProtoConnection.connect(
            to: fixture.endpoint(.abridged), publicKeys: [server.keys.rsaKey.publicKey], group: fixture.group)
        let signal = connection.request(Api.functions.help.getNearestDc())
            |> map { nearest -> Int32 in
                switch nearest {
                case .nearestDc(let value): return value.nearestDc
                }
            }
        let values = try await collect(signal)
        #expect(values == [2])
        let failing = connection.request(Api.functions.help.getAppConfig(hash: 0))
        await #expect(throws: NetworkError.rpc(code: 400, message: "METHOD_NOT_IMPLEMENTED")) { _ = try await collect(failing) }
        await connection.close()
        try await fixture.stop()
    }

    @Test func aStaleSaltIsCorrectedByBadServerSalt() async throws {
        let fixture = Fixture()
        let server = try await fixture.start()
        let keys = [server.keys.rsaKey.publicKey]
        let first = try await MTProtoConnection.connect(to: fixture.endpoint(.intermediate), publicKeys: keys, group: fixture.group)
        _ = try await first.invoke(Api.functions.help.getNearestDc())
        await first.close()
        let stale = AuthKeyExchangeResult(authKey: first.key.authKey, serverSalt: 12345, timeOffset: first.key.timeOffset)
        let second = try await MTProtoConnection.connect(
            to: fixture.endpoint(.intermediate), publicKeys: keys, savedKey: stale, group: fixture.group)
        #expect(try await second.sessionState().salt == 12345)
        // The server refuses the stale salt with bad_server_salt (48) naming the right one; the session adopts it and
        // re-sends, so the call still succeeds.
        switch try await second.invoke(Api.functions.help.getNearestDc()) {
        case .nearestDc(let nearest): #expect(nearest.thisDc == 2)
        }
        let expected = server.salts.salt(authKeyId: first.key.authKey.id, time: Date().timeIntervalSince1970)
        #expect(try await second.sessionState().salt == expected)
        await second.close()
        try await fixture.stop()
    }

    @Test func aSkewedClockIsCorrectedByBadMsgNotification() async throws {
        let fixture = Fixture()
        let server = try await fixture.start()
        let keys = [server.keys.rsaKey.publicKey]
        let first = try await MTProtoConnection.connect(to: fixture.endpoint(.abridged), publicKeys: keys, group: fixture.group)
        _ = try await first.invoke(Api.functions.help.getNearestDc())
        await first.close()
        // This client's clock runs 200 s fast and it forgot its correction: msg_ids are "too high" (code 17).
        let skewed = AuthKeyExchangeResult(authKey: first.key.authKey, serverSalt: first.key.serverSalt, timeOffset: 0)
        let second = try await MTProtoConnection.connect(
            to: fixture.endpoint(.abridged), publicKeys: keys, savedKey: skewed, group: fixture.group,
            clock: { Date().timeIntervalSince1970 + 200 })
        #expect(try await second.sessionState().timeOffset == 0)
        // The server answers bad_msg_notification 17 about our msg_id; its own msg_id carries its time, which the
        // session adopts before re-sending.
        switch try await second.invoke(Api.functions.help.getNearestDc()) {
        case .nearestDc(let nearest): #expect(nearest.thisDc == 2)
        }
        let offset = try await second.sessionState().timeOffset
        #expect(abs(offset + 200) < 2, "the clock correction is \(offset) s, expected about -200 s")
        await second.close()
        try await fixture.stop()
    }

    @Test func anUnknownKeyGetsMinus404() async throws {
        let fixture = Fixture()
        let server = try await fixture.start()
        let forged = AuthKeyExchangeResult(authKey: AuthKey(bytes: SecureRandom.bytes(256))!, serverSalt: 1, timeOffset: 0)
        let connection = try await MTProtoConnection.connect(
            to: fixture.endpoint(.full), publicKeys: [server.keys.rsaKey.publicKey], savedKey: forged, group: fixture.group)
        await #expect(throws: NetworkError.authKeyUnknown) { _ = try await connection.invoke(Api.functions.help.getNearestDc()) }
        await connection.close()
        try await fixture.stop()
    }
}

/// Every value a signal emits until it completes.
func collect<T: Sendable, E: Error>(_ signal: Signal<T, E>) async throws -> [T] {
    var values: [T] = []
    for try await value in signal.values { values.append(value) }
    return values
}
