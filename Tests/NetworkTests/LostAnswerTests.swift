import Foundation
import MTProtoTransport
import ServerTestSupport
import Synchronization
import TelegramApi
import Testing

@testable import Network

/// A message sent once whose answer the connection lost after the server's quick ack, both ends' clocks 300 s on when
/// the session reconnects (past `ClientSession.resendWithSameIdWithin` and the server's window): the session does not
/// send it anew but asks the server about it (`msgs_state_req`, then `msg_resend_ans_req`; or takes the answer the
/// server sends again by itself on the new connection), so tg-server stores it once and the call gets the answer of
/// its one run (core.telegram.org/mtproto/service_messages_about_messages). With the old decision the server runs it
/// again and the call fails with `RANDOM_ID_DUPLICATE`.
@Suite(.serialized) struct LostAnswerTests {
    @Test func aQuickAckedMessageWhoseAnswerWasLostIsStoredOnceAfter300Seconds() async throws {
        // The clock of both ends: the machine's, plus what the test adds.
        let skew = Atomic<Int64>(0)
        let clock: @Sendable () -> Double = { Date().timeIntervalSince1970 + Double(skew.load(ordering: .relaxed)) }
        let world = try await FaultInjectionTests.world(clock: clock)
        let upstream = try #require(world.backend.endpoints[2]).port
        // The first connection lets through the server's first four bytes — the quick ack — and no more.
        let proxy = try await FaultProxy(
            upstreamPort: upstream, mode: .cutAfterServerBytes(4, count: 1), seed: 3, group: world.backend.group)
        let endpoint = MTProtoConnection.Endpoint(host: "127.0.0.1", port: proxy.port, dcId: 2, framing: .abridged)
        let connection = try await DatacenterConnection.open(
            to: endpoint, key: world.alice.key, group: world.backend.group, clock: clock)
        let acknowledged = Atomic<Bool>(false)
        let updates = try await connection.invoke(
            Api.functions.messages.sendMessage(peer: world.bobPeer, message: "once", randomId: 77), timeout: 1_000,
            onQuickAck: {
                acknowledged.store(true, ordering: .relaxed)
                // The answer is lost with the socket; the next one opens 300 s later by both ends' clocks.
                skew.store(300, ordering: .relaxed)
            })
        let quickAcked = acknowledged.load(ordering: .relaxed)
        #expect(quickAcked)
        guard case .updateShortSentMessage = updates else {
            Issue.record("expected the answer of the one run, got \(updates)")
            throw CancellationError()
        }
        #expect(proxy.faults == 1 && connection.socketCount > 1, "the first socket was not cut")
        #expect(try await FaultInjectionTests.storedTexts(world) == ["once"])
        await connection.close()
        await proxy.close()
        await world.alice.close()
        try await world.backend.close()
    }
}
