import AccountNetworking
import Foundation
import MTProtoTransport
import Network
import ServerTestSupport
import SwiftSignalKit
import TelegramApi
import Testing

/// Our client through an MTProxy no one here wrote — alexbers' mtprotoproxy (installed by `make deps`) — to a real
/// tg-server, with each kind of secret: plain obfuscated2, `dd` (padded intermediate) and `ee` fake-TLS. Each does a
/// key exchange and a sign-up through the proxy, and a session of its own gets a push; the proxy is shown to be on
/// the path by stopping it. A client holding the wrong key gets nowhere, as the proxy reveals nothing to it.
@Suite(.serialized) struct MTProxyTests {
    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    static let key: [UInt8] = (0..<16).map { UInt8($0 * 13 + 3) }

    /// `backend`'s DC 2 through `proxy`.
    static func endpoint(_ backend: BackendServer, through proxy: ConnectionProxy) throws -> MTProtoConnection.Endpoint
    {
        var endpoint = try #require(backend.endpoints[2])
        endpoint.proxy = proxy
        return endpoint
    }

    @Test(arguments: [MTProxySecret.Kind.plain, .padded, .fakeTLS])
    func keyExchangeSignUpAndAPushThroughTheProxy(kind: MTProxySecret.Kind) async throws {
        let backend = try await BackendServer()
        let peer = try await MTProxyTestPeer(keys: [Self.key], dcPorts: backend.endpoints.mapValues(\.port))
        let secret = try MTProxySecret(kind: kind, key: Self.key, domain: "example.com")
        let endpoint = try Self.endpoint(backend, through: peer.proxy(secret))
        #expect(endpoint.route.port == peer.port)
        #expect(endpoint.route.framing == (kind == .plain ? .abridged : .paddedIntermediate))
        let alice = try await MTProtoConnection.connect(
            to: endpoint, publicKeys: backend.publicKeys, group: backend.group)
        let phone = "99966292\(kind == .plain ? 1 : kind == .padded ? 3 : 5)1"
        guard case .user(let aliceUser) = try await BackendServer.signUp(alice, phone: phone, name: "Alice"),
            let aliceHash = aliceUser.accessHash
        else { throw Failure(message: "no user") }
        let session = try await DatacenterConnection.open(to: endpoint, key: alice.key, group: backend.group)
        let me = try await session.invoke(Api.functions.users.getUsers(id: [.inputUserSelf]))
        guard case .user(let user)? = me.first else { throw Failure(message: "no self") }
        #expect(user.id == aliceUser.id)
        let bob = try await backend.connect()
        _ = try await BackendServer.signUp(bob, phone: String(phone.dropLast()) + "2", name: "Bob")
        _ = try await bob.invoke(
            Api.functions.messages.sendMessage(
                peer: .inputPeerUser(.init(userId: aliceUser.id, accessHash: aliceHash)),
                message: "via mtproxy \(kind)", randomId: 7))
        #expect(try await HTTPTransportTests.firstPushedText(on: session, within: 15) == "via mtproxy \(kind)")
        // The proxy carries the session: stopped, it takes the connection with it.
        let states = AsyncStream.makeStream(of: DatacenterConnection.SocketState.self)
        let watch = session.state.start(next: { states.continuation.yield($0) })
        peer.stop()
        #expect(await SOCKS5ProxyTests.first(of: states.stream, within: 10) { $0 != .online } != nil)
        watch.dispose()
        await session.close()
        await alice.close()
        await bob.close()
        try await backend.close()
    }

    @Test func theWrongKeyGetsNoAnswer() async throws {
        let backend = try await BackendServer()
        let peer = try await MTProxyTestPeer(keys: [Self.key], dcPorts: backend.endpoints.mapValues(\.port))
        let wrong = try MTProxySecret(kind: .fakeTLS, key: Self.key.reversed(), domain: "example.com")
        let endpoint = try Self.endpoint(backend, through: peer.proxy(wrong))
        let attempt = Task {
            try await MTProtoConnection.connect(to: endpoint, publicKeys: backend.publicKeys, group: backend.group)
        }
        try await Task.sleep(for: .seconds(3))
        // No key exchange within 3 s; stopping the proxy ends the attempt, which must not have succeeded.
        peer.stop()
        switch await attempt.result {
        case .success(let connection):
            Issue.record("a key exchange succeeded through the proxy with the wrong key")
            await connection.close()
        case .failure: break
        }
        try await backend.close()
    }
}
