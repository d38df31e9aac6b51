import CryptoUtils
import MTProtoApi
import MTProtoCore
import TLRuntime
import Testing

/// A session outliving its socket, with both state machines and the "socket" a list of packets that may be lost:
/// after a reconnect every request is answered exactly once and run once, whichever packet the old socket lost.
@Suite struct ReconnectTests {
    typealias W = Wire
    static let now = Wire.now
    /// An API call body the server hands to its application layer (not a service call it answers itself).
    static let call: [UInt8] = [0x01, 0x02, 0x03, 0x04]
    static let msgsAckId: UInt32 = 0x62d6_b459

    struct Pair {
        var client = ClientSession(authKey: W.key, salt: W.salt, timeOffset: 0, sessionId: W.sessionId)
        var server = ServerSession(authKey: W.key, sessionId: W.sessionId, schedule: W.schedule, handshakeSalt: nil)
        /// How often the application layer ran a call.
        var runs = 0
        var results: [Int64: Int] = [:]

        /// Delivers client packets to the server; returns the server's packets (answers run the call once each).
        mutating func toServer(_ packets: [[UInt8]], now: Double) throws -> [[UInt8]] {
            var out: [[UInt8]] = []
            for packet in packets {
                let message = try EncryptedMessage.decrypt(packet, authKey: W.key, direction: .clientToServer)
                let reaction = server.receive(message, now: now)
                var replies = reaction.replies
                for call in reaction.calls {
                    runs += 1
                    replies.append(server.answer(call, result: [0x11, 0x22, 0x33, 0x44]))
                }
                out += server.seal(replies, now: now)
                out += server.replay(reaction.replay, now: now)
            }
            return out
        }

        /// Delivers server packets to the client, counting results per token; returns what the client sends back.
        mutating func toClient(_ packets: [[UInt8]], now: Double) -> [[UInt8]] {
            var out: [[UInt8]] = []
            for packet in packets {
                guard let (events, send) = try? client.receive(packet, now: now) else { continue }
                out += send
                for case .result(let token, .success) in events { results[token, default: 0] += 1 }
            }
            return out
        }
    }

    @Test func aRequestTheOldSocketLostIsSentAgainAndRunOnce() throws {
        var pair = Pair()
        let (token, lost) = try pair.client.send(Self.call, now: Self.now)
        _ = lost  // the socket died with it
        let again = pair.client.resendAfterReconnect(now: Self.now + 1)
        #expect(try Wire.messages(inClientPackets: again).map(\.messageId) == Wire.messages(inClientPackets: lost).map(\.messageId))
        let answers = try pair.toServer(again, now: Self.now + 1)
        _ = pair.toClient(answers, now: Self.now + 1)
        #expect(pair.runs == 1)
        #expect(pair.results == [token: 1])
    }

    @Test func anAnswerTheOldSocketLostComesAgainWithoutRunningTheCallTwice() throws {
        var pair = Pair()
        let (token, packets) = try pair.client.send(Self.call, now: Self.now)
        // The server got the request and answered; the answer died with the socket.
        _ = try pair.toServer(packets, now: Self.now)
        #expect(pair.runs == 1 && pair.server.unacknowledgedCount >= 1)
        // The client comes back: the server sends what is unacknowledged, the client sends its request again.
        let missed = pair.server.unacknowledgedPackets(now: Self.now + 2)
        _ = pair.toClient(missed, now: Self.now + 2)
        let again = pair.client.resendAfterReconnect(now: Self.now + 2)
        let replayed = try pair.toServer(again, now: Self.now + 2)
        _ = pair.toClient(replayed, now: Self.now + 2)
        #expect(pair.runs == 1)
        #expect(pair.results == [token: 1])
    }

    @Test func aDuplicateRequestGetsItsCachedAnswerAgain() throws {
        var pair = Pair()
        let (token, packets) = try pair.client.send(Self.call, now: Self.now)
        _ = try pair.toServer(packets, now: Self.now)
        // Only the request goes again (as after a reconnect), the answer comes from the server's cache.
        let replayed = try pair.toServer(pair.client.resendAfterReconnect(now: Self.now + 1), now: Self.now + 1)
        #expect(!replayed.isEmpty)
        _ = pair.toClient(replayed, now: Self.now + 1)
        #expect(pair.runs == 1 && pair.results == [token: 1])
    }

    @Test func acknowledgedMessagesAreNotSentAgain() throws {
        var pair = Pair()
        let (token, packets) = try pair.client.send(Self.call, now: Self.now)
        _ = pair.toClient(try pair.toServer(packets, now: Self.now), now: Self.now)
        #expect(pair.results == [token: 1])
        #expect(pair.server.unacknowledgedCount > 0)
        _ = try pair.toServer(pair.client.acknowledgements(now: Self.now + 0.1), now: Self.now + 0.1)
        #expect(pair.server.unacknowledgedCount == 0)
        #expect(pair.server.unacknowledgedPackets(now: Self.now + 1).isEmpty)
        // Nothing is pending on the client either: a reconnect sends nothing.
        #expect(pair.client.resendAfterReconnect(now: Self.now + 1).isEmpty)
    }

    /// A server that restarted has forgotten the session: the next request makes it again, and the new session counts
    /// its seq_nos from 0 (core.telegram.org/mtproto/service_messages "New Session Creation Notification"). The client
    /// takes its packets — they carry `new_session_created` — although their seq_nos are below the old session's,
    /// reports the new session and gets its answer; a seq_no that falls without that notice is still refused.
    @Test func aRestartedServersNewSessionIsTakenThoughItsSeqNosStartAgain() throws {
        var pair = Pair()
        for step in 0..<5 {
            let now = Self.now + Double(step)
            let (token, packets) = try pair.client.send(Self.call, now: now)
            _ = pair.toClient(try pair.toServer(packets, now: now), now: now)
            #expect(pair.results[token] == 1)
        }
        let later = Self.now + 10
        // Without the notice, a seq_no below the old session's is refused.
        let pong = MTProto.Pong.pong(.init(msgId: 1, pingId: 1)).serialized()
        let stray = W.fromServer(id: W.id(later - 1, 1), seq: 1, body: pong)
        #expect(throws: EnvelopeError.messageIdRejected(.seqNoTooLow)) {
            _ = try pair.client.receive(stray, now: later)
        }
        // The server restarts: a new state machine for the same key and session id, with no memory of either.
        pair.server = ServerSession(authKey: W.key, sessionId: W.sessionId, schedule: W.schedule, handshakeSalt: nil)
        let (token, packets) = try pair.client.send(Self.call, now: later)
        var events: [ClientSession.Event] = []
        for packet in try pair.toServer(packets, now: later) {
            let (received, _) = try pair.client.receive(packet, now: later)
            events += received
        }
        // first_msg_id names the first message the new session took: the packet's (here a container with the call).
        let firstId = try EncryptedMessage.decrypt(packets[0], authKey: W.key, direction: .clientToServer).messageId
        #expect(events.contains(.newSession(firstMessageId: firstId)))
        #expect(events.contains { if case .result(token, .success) = $0 { true } else { false } })
        // The new session's later packets fit its own sequence.
        let (next, nextPackets) = try pair.client.send(Self.call, now: later + 1)
        _ = pair.toClient(try pair.toServer(nextPackets, now: later + 1), now: later + 1)
        #expect(pair.results[next] == 1)
    }

    /// Requests the forgotten session took but never answered (sent before the new session's first message) go
    /// again once `new_session_created` names that first message, as TDLib's `Session::on_new_session_created` resends
    /// them; the ones that travelled with it are not sent twice.
    @Test func requestsSentBeforeTheNewSessionsFirstMessageGoAgain() throws {
        var pair = Pair()
        let (lost, lostPackets) = try pair.client.send(Self.call, now: Self.now)
        // The old session took it and was forgotten before it answered (a restart, or a session dropped by the server).
        _ = try pair.toServer(lostPackets, now: Self.now)
        pair.server = ServerSession(authKey: W.key, sessionId: W.sessionId, schedule: W.schedule, handshakeSalt: nil)
        let first = try pair.client.enqueue(Self.call)
        let second = try pair.client.enqueue(Self.call)
        let together = pair.client.flush(now: Self.now + 1)
        #expect(together.count == 1, "both calls in one container")
        let again = pair.toClient(try pair.toServer(together, now: Self.now + 1), now: Self.now + 1)
        let requests = try Wire.messages(inClientPackets: again).filter { $0.constructorId != Self.msgsAckId }
        #expect(requests.count == 1, "only the lost request goes again")
        _ = pair.toClient(try pair.toServer(again, now: Self.now + 1), now: Self.now + 1)
        #expect(pair.results == [lost: 1, first: 1, second: 1])
    }

    @Test func aRequestOlderThanTheServerWindowGoesWithANewId() throws {
        var pair = Pair()
        let (token, packets) = try pair.client.send(Self.call, now: Self.now)
        let later = Self.now + ClientSession.resendWithSameIdWithin + 10
        let again = pair.client.resendAfterReconnect(now: later)
        let oldId = try Wire.messages(inClientPackets: packets).map(\.messageId)
        let newIds = try Wire.messages(inClientPackets: again).map(\.messageId)
        #expect(!newIds.isEmpty && Set(newIds).isDisjoint(with: oldId))
        _ = pair.toClient(try pair.toServer(again, now: later), now: later)
        #expect(pair.runs == 1 && pair.results == [token: 1])
    }
}

extension Wire {
    /// The messages client packets carry (a container's children, or the message itself).
    static func messages(inClientPackets packets: [[UInt8]]) throws -> [InnerMessage] {
        try packets.flatMap { packet -> [InnerMessage] in
            let message = try EncryptedMessage.decrypt(packet, authKey: key, direction: .clientToServer)
            let top = InnerMessage(messageId: message.messageId, seqNo: message.seqNo, body: message.body)
            guard top.constructorId == ServiceCodec.containerId else { return [top] }
            return try ServiceCodec.parseContainer(top.body)
        }
    }
}

/// Giving up a request, and requests that must run after another.
@Suite struct CancellationAndOrderingTests {
    typealias W = Wire
    static let now = Wire.now

    @Test func aCancelledRequestAsksTheServerToDropItsAnswerAndReportsNothing() throws {
        var pair = ReconnectTests.Pair()
        let (token, packets) = try pair.client.send(ReconnectTests.call, now: Self.now)
        let id = try #require(pair.client.messageId(ofToken: token))
        let drop = pair.client.cancel(token: token, now: Self.now + 0.1)
        let sent = try Wire.messages(inClientPackets: drop)
        let drops = sent.compactMap { message -> Int64? in
            var reader = TLReader(message.body)
            return (try? MTProto.functions.parse(&reader) as? MTProto.functions.rpcDropAnswer)??.reqMsgId
        }
        #expect(drops == [id])
        #expect(pair.client.messageId(ofToken: token) == nil)
        // The answer to the original still comes (the server ran it first): nothing is reported for it.
        let answers = try pair.toServer(packets + drop, now: Self.now + 0.1)
        _ = pair.toClient(answers, now: Self.now + 0.1)
        #expect(pair.results[token] == nil)
        #expect(pair.client.cancel(token: token, now: Self.now + 0.2).isEmpty)
    }

    @Test func invokeAfterMsgReachesTheServerAsTheCallsDependency() throws {
        var server = ServerSession(authKey: W.key, sessionId: W.sessionId, schedule: W.schedule, handshakeSalt: nil)
        var writer = TLWriter()
        writer.writeUInt32(0xcb9f_372d)
        writer.writeInt64(12345)
        writer.writeRaw(ReconnectTests.call)
        let message = try W.fromClient(id: W.id(Self.now), seq: 1, body: writer.takeBytes())
        let reaction = server.receive(message, now: Self.now)
        #expect(reaction.calls.first?.afterMessages == [12345])
        #expect(reaction.calls.first?.query == ReconnectTests.call)
    }
}

/// MTProto over HTTP's `http_wait` reaches the transport through the session's reaction.
@Suite struct HTTPWaitTests {
    @Test func httpWaitIsReportedWithItsTimes() throws {
        var server = ServerSession(authKey: Wire.key, sessionId: Wire.sessionId, schedule: Wire.schedule, handshakeSalt: nil)
        let body = MTProto.HttpWait.httpWait(.init(maxDelay: 0, waitAfter: 0, maxWait: 1500)).serialized()
        let reaction = server.receive(try Wire.fromClient(id: Wire.id(Wire.now), seq: 0, body: body), now: Wire.now)
        #expect(reaction.httpWait == ServerSession.HTTPWait(maxDelay: 0, waitAfter: 0, maxWait: 1500))
        #expect(reaction.dropped.isEmpty)
    }
}
