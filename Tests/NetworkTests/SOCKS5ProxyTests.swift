import AccountNetworking
import Foundation
import MTProtoTransport
import NIOCore
import NIOPosix
import Network
import ServerTestSupport
import SwiftSignalKit
import TelegramApi
import TestVectors
import Testing

/// Our client through a SOCKS5 server no one here wrote — Debian's `microsocks` (installed by `make deps`) — to a
/// real tg-server: the key exchange, sign-up and calls, and a session's push, with and without a password; the
/// proxy's refusals reach the caller by their RFC names. The target is named `localhost`, so the proxy resolves it
/// (a domain CONNECT), and the proxy is shown to be on the path by stopping it: the tunnelled session drops with it.
@Suite(.serialized) struct SOCKS5ProxyTests {
    struct ProxyError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// `backend`'s DC 2, named `localhost` and reached through `proxy`.
    static func endpoint(_ backend: BackendServer, through proxy: SOCKS5Proxy) throws -> MTProtoConnection.Endpoint {
        var endpoint = try #require(backend.endpoints[2])
        endpoint.host = "localhost"
        endpoint.proxy = .socks5(proxy)
        return endpoint
    }

    @Test func keyExchangeSignUpCallsAndAPushThroughTheProxy() async throws {
        let backend = try await BackendServer()
        let socks = try await SOCKS5TestProxy()
        let endpoint = try Self.endpoint(backend, through: socks.proxy())
        let alice = try await MTProtoConnection.connect(
            to: endpoint, publicKeys: backend.publicKeys, group: backend.group)
        guard case .user(let aliceUser) = try await BackendServer.signUp(alice, phone: "9996629101", name: "Alice"),
            let aliceHash = aliceUser.accessHash
        else { throw ProxyError(message: "no user") }
        // A session of its own through the proxy, which gets a push.
        let session = try await DatacenterConnection.open(to: endpoint, key: alice.key, group: backend.group)
        let me = try await session.invoke(Api.functions.users.getUsers(id: [.inputUserSelf]))
        guard case .user(let user)? = me.first else { throw ProxyError(message: "no self") }
        #expect(user.id == aliceUser.id)
        let bob = try await backend.connect()
        _ = try await BackendServer.signUp(bob, phone: "9996629102", name: "Bob")
        _ = try await bob.invoke(
            Api.functions.messages.sendMessage(
                peer: .inputPeerUser(.init(userId: aliceUser.id, accessHash: aliceHash)), message: "via socks",
                randomId: 7))
        #expect(try await HTTPTransportTests.firstPushedText(on: session, within: 15) == "via socks")
        // The proxy carries the session: stopped, it takes the connection with it.
        let states = AsyncStream.makeStream(of: DatacenterConnection.SocketState.self)
        let watch = session.state.start(next: { states.continuation.yield($0) })
        socks.stop()
        #expect(await Self.first(of: states.stream, within: 10) { $0 != .online } != nil)
        watch.dispose()
        await session.close()
        await alice.close()
        await bob.close()
        try await backend.close()
    }

    @Test func withAPasswordAndTheProxysRefusals() async throws {
        let backend = try await BackendServer()
        let socks = try await SOCKS5TestProxy(username: "ann", password: "s3cret")
        defer { socks.stop() }
        let good = try Self.endpoint(backend, through: socks.proxy(.init(username: "ann", password: "s3cret")))
        let connection = try await MTProtoConnection.connect(
            to: good, publicKeys: backend.publicKeys, group: backend.group)
        let config = try await connection.invoke(Api.functions.help.getConfig())
        guard case .config(let value) = config else { throw ProxyError(message: "no config") }
        #expect(value.thisDc == 2)
        await connection.close()

        func failure(_ endpoint: MTProtoConnection.Endpoint) async -> SOCKS5Handshake.Failure? {
            do {
                let connection = try await MTProtoConnection.connect(
                    to: endpoint, publicKeys: backend.publicKeys, group: backend.group)
                await connection.close()
                return nil
            } catch {
                return error as? SOCKS5Handshake.Failure
            }
        }
        let wrong = try Self.endpoint(backend, through: socks.proxy(.init(username: "ann", password: "guess")))
        #expect(await failure(wrong) == .authenticationFailed)
        let none = try Self.endpoint(backend, through: socks.proxy())
        #expect(await failure(none) == .noAcceptableMethod)
        // Nothing listens where the proxy is asked to go: RFC 1928's "connection refused".
        var closed = good
        let refusing = try RefusingPort()
        closed.port = refusing.port
        #expect(await failure(closed) == .refused(code: 5))
        withExtendedLifetime(refusing) {}
        try await backend.close()
    }

    /// The first value of `stream` that `matches`, or nil after `seconds`.
    static func first<T: Sendable>(
        of stream: AsyncStream<T>, within seconds: Double, where matches: @escaping @Sendable (T) -> Bool
    ) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask {
                for await value in stream where matches(value) { return value }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
