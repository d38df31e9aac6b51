import AccountNetworking
import CryptoUtils
import MTProtoCore
import MTProtoTransport
import NIOCore
import NIOEmbedded
import NIOPosix
import TLRuntime
import TelegramApi
import Testing

@testable import Network

/// Every wait of an `MTProtoConnection` ends: a key exchange begun on a socket that has already closed fails at once
/// (it used to wait forever when the socket closed between the connect and the exchange's first packet), a server
/// that never answers the exchange or a call fails it at its time limit.
@Suite struct ConnectionWaitBoundsTests {
    /// A public key of the right shape; these exchanges never get as far as using it.
    static let publicKey = RSAPublicKey(
        modulus: [0xC1] + [UInt8](repeating: 0x5A, count: 254) + [0x0B], exponent: [1, 0, 1])
    static let key = AuthKey(bytes: (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 3) })!

    @Test func anExchangeBegunAfterTheSocketClosedFailsAtOnce() throws {
        let handler = ClientConnectionHandler(clock: { 1_700_000_000 })
        let channel = EmbeddedChannel(handler: handler)
        try channel.close().wait()
        let exchange = handler.createKey(AuthKeyClientExchange(publicKeys: [Self.publicKey], dcId: 2), timeout: 30)
        try #require(isDone(exchange), "the exchange waits on a socket that has closed")
        #expect(throws: NetworkError.connectionClosed) { try exchange.wait() }
    }

    @Test func anUnansweredExchangeAndAnUnansweredCallEndAtTheirTimeLimits() throws {
        let handler = ClientConnectionHandler(clock: { 1_700_000_000 }, answerTimeout: 60)
        let channel = EmbeddedChannel(handler: handler)
        let exchange = handler.createKey(AuthKeyClientExchange(publicKeys: [Self.publicKey], dcId: 2), timeout: 30)
        channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        #expect(!isDone(exchange), "the exchange ended before its time limit")
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        try #require(isDone(exchange), "the exchange outlived its time limit")
        #expect(throws: NetworkError.timedOut(30)) { try exchange.wait() }

        handler.startSession(ClientSession(authKey: Self.key, salt: 1, timeOffset: 0))
        let call = handler.send(try Api.functions.help.getNearestDc().encoded())
        channel.embeddedEventLoop.advanceTime(by: .seconds(59))
        #expect(!isDone(call), "the call ended before its time limit")
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        try #require(isDone(call), "the call outlived its time limit")
        #expect(throws: NetworkError.timedOut(60)) { try call.wait() }
        _ = try? channel.finish()
    }

    @Test func aServerThatNeverAnswersTheExchangeFailsTheConnect() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        // Accepts connections and reads nothing back: every byte the client sends goes unanswered.
        let silent = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(silent.localAddress?.port)
        let endpoint = MTProtoConnection.Endpoint(host: "127.0.0.1", port: port, dcId: 2, framing: .abridged)
        await #expect(throws: NetworkError.timedOut(0.5)) {
            _ = try await MTProtoConnection.connect(
                to: endpoint, publicKeys: [Self.publicKey], group: group, keyExchangeTimeout: 0.5)
        }
        try await silent.close()
        try await group.shutdownGracefully()
    }

    private func isDone<T>(_ future: EventLoopFuture<T>) -> Bool {
        var done = false
        future.whenComplete { _ in done = true }
        return done
    }
}
