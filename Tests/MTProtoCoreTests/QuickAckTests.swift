import CryptoUtils
import MTProtoApi
import MTProtoCore
import TLRuntime
import Testing

/// Quick acks on the client's session (core.telegram.org/mtproto/mtproto-transports "Quick ack"): a packet carrying
/// requests asks for one, the token the server computes on decrypting it names exactly those requests, once, and
/// nothing else.
@Suite struct QuickAckTests {
    typealias W = Wire

    static func client() -> ClientSession {
        ClientSession(authKey: W.key, salt: W.salt, timeOffset: 0, sessionId: W.sessionId)
    }

    /// The quick-ack token the server answers `packet` with: what its decryption computes.
    static func serverToken(_ packet: [UInt8]) throws -> UInt32 {
        try EncryptedMessage.decrypt(packet, authKey: W.key, direction: .clientToServer).quickAckToken
    }

    @Test func theServersTokenNamesTheRequestsOfItsPacketOnce() throws {
        var client = Self.client()
        let first = try client.send(W.ping(1), now: W.now)
        let second = try client.send(W.ping(2), now: W.now)
        #expect(client.asksForQuickAck(first.packets[0]) && client.asksForQuickAck(second.packets[0]))
        let firstToken = try Self.serverToken(first.packets[0])
        let secondToken = try Self.serverToken(second.packets[0])
        #expect(firstToken & 0x8000_0000 == 0, "the top bit is the transport's, not the token's")
        #expect(client.quickAckReceived(secondToken) == [second.token])
        #expect(client.quickAckReceived(firstToken) == [first.token])
        #expect(client.quickAckReceived(firstToken).isEmpty, "reported once")
        #expect(client.quickAckReceived(firstToken ^ 1).isEmpty, "a token this session never sealed")
    }

    @Test func aContainerIsAcknowledgedForEveryRequestInIt() throws {
        var client = Self.client()
        let tokens = try (1...3).map { try client.enqueue(W.ping(Int64($0))) }
        let packets = client.flush(now: W.now)
        try #require(packets.count == 1)
        #expect(client.quickAckReceived(try Self.serverToken(packets[0])) == tokens)
    }

    @Test func aPacketOfAcknowledgementsAloneAsksForNone() throws {
        var client = Self.client()
        // A content-related server message owes an acknowledgement.
        let update = W.fromServer(id: W.id(W.now, 1), seq: 1, body: MTProto.Pong.pong(.init(msgId: 0, pingId: 0)).serialized())
        _ = try client.receive(update, now: W.now)
        let acks = client.acknowledgements(now: W.now)
        try #require(acks.count == 1)
        #expect(!client.asksForQuickAck(acks[0]))
    }

    @Test func aRequestResentAfterAReconnectIsReportedOnceAcrossItsPackets() throws {
        var client = Self.client()
        let sent = try client.send(W.ping(7), now: W.now)
        let again = client.resendAfterReconnect(now: W.now + 1)
        try #require(again.count == 1)
        #expect(client.asksForQuickAck(again[0]))
        #expect(client.quickAckReceived(try Self.serverToken(again[0])) == [sent.token])
        #expect(client.quickAckReceived(try Self.serverToken(sent.packets[0])).isEmpty)
    }

    @Test func anAnsweredRequestIsNotReported() throws {
        var client = Self.client()
        var server = ServerSession(authKey: W.key, sessionId: W.sessionId, schedule: W.schedule, handshakeSalt: nil)
        let sent = try client.send(W.ping(9), now: W.now)
        let message = try EncryptedMessage.decrypt(sent.packets[0], authKey: W.key, direction: .clientToServer)
        let reaction = server.receive(message, now: W.now)
        for reply in server.seal(reaction.replies, now: W.now) { _ = try client.receive(reply, now: W.now) }
        try #require(client.pendingCount == 0)
        #expect(client.quickAckReceived(message.quickAckToken).isEmpty)
    }

    @Test func onlyTheNewestPacketsAreRemembered() throws {
        var client = Self.client()
        let oldest = try client.send(W.ping(0), now: W.now)
        var newest = oldest
        for id in 1...1100 { newest = try client.send(W.ping(Int64(id)), now: W.now) }
        #expect(!client.asksForQuickAck(oldest.packets[0]))
        #expect(client.quickAckReceived(try Self.serverToken(oldest.packets[0])).isEmpty)
        #expect(client.quickAckReceived(try Self.serverToken(newest.packets[0])) == [newest.token])
    }
}
