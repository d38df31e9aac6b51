import AccountNetworking
import Foundation
import MTProtoApi
import MTProtoTransport
import Network
import ServerTestSupport
import Synchronization
import TelegramApi
import Testing

/// Quick acks between our client and tg-server over sockets (core.telegram.org/mtproto/mtproto-transports "Quick
/// ack"): on every framing that can ask for one, a call hears that the server has it before its answer comes; over
/// the full framing, which has no bit to ask with, it hears nothing and is answered all the same.
@Suite(.serialized) struct QuickAckLiveTests {
    static let framings: [(TransportFraming, TransportObfuscation)] = [
        (.abridged, .none), (.intermediate, .none), (.paddedIntermediate, .obfuscated2(dcId: 2)),
    ]

    @Test func aCallIsAcknowledgedBeforeItsAnswerOnEveryFramingThatAsks() async throws {
        let world = try await AccountNetworkTests.world()
        let network = AccountNetworkTests.network(world)
        _ = try await network.request(Api.functions.help.getConfig())
        let key = try await network.connection(dc: 2).key
        let base = try #require(world.endpoints[2])
        for (framing, obfuscation) in Self.framings + [(.full, .none)] {
            let label = "\(framing) \(obfuscation)"
            let endpoint = MTProtoConnection.Endpoint(
                host: base.host, port: base.port, dcId: 2, framing: framing, obfuscation: obfuscation)
            let connection = try await DatacenterConnection.open(to: endpoint, key: key, group: world.group)
            let order = Mutex<[String]>([])
            for ping in 1...3 {
                let pong = try await connection.invoke(
                    MTProto.functions.ping(pingId: Int64(ping)), timeout: 20,
                    onQuickAck: { order.withLock { $0.append("ack \(ping)") } })
                if case .pong(let value) = pong { #expect(value.pingId == Int64(ping), "\(label)") }
                order.withLock { $0.append("answer \(ping)") }
            }
            let expected =
                framing == .full
                ? (1...3).map { "answer \($0)" } : (1...3).flatMap { ["ack \($0)", "answer \($0)"] }
            #expect(order.withLock { $0 } == expected, "\(label)")
            await connection.close()
        }
        try await AccountNetworkTests.close(world, network)
    }
}
