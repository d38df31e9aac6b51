import CryptoUtils
import MTProtoApi
import MTProtoCore
import TLRuntime
import Testing

/// The client's session state machine driven with bytes and time alone: against the server's state machine, and
/// against hand-made server packets that break one rule each.
@Suite struct ClientSessionTests {
    typealias W = Wire
    static let now = Wire.now

    static func client(offset: Double = 0) -> ClientSession {
        ClientSession(authKey: W.key, salt: W.salt, timeOffset: offset, sessionId: W.sessionId)
    }

    /// Sends one request; returns its token and the msg_id it went out under.
    static func send(_ client: inout ClientSession, _ body: [UInt8] = W.ping(), now: Double = now) throws -> (Int64, Int64) {
        let (token, packets) = try client.send(body, now: now)
        let message = try EncryptedMessage.decrypt(packets[0], authKey: W.key, direction: .clientToServer)
        return (token, message.messageId)
    }

    /// A server message at `now` + `offset`, taking the next server id.
    static func serverId(_ offset: Double = 0, _ remainder: Int64 = 1) -> Int64 {
        W.id(now + offset, remainder)
    }

    @Test func requestsRoundTripThroughTheServerStateMachine() throws {
        var client = Self.client()
        var server = ServerSession(authKey: W.key, sessionId: W.sessionId, schedule: W.schedule, handshakeSalt: nil)
        let (token, packets) = try client.send(W.ping(42), now: Self.now)
        var events: [ClientSession.Event] = []
        for packet in packets {
            let message = try EncryptedMessage.decrypt(packet, authKey: W.key, direction: .clientToServer)
            let reaction = server.receive(message, now: Self.now)
            #expect(reaction.accepted)
            for reply in server.seal(reaction.replies, now: Self.now) {
                events += try client.receive(reply, now: Self.now).events
            }
        }
        #expect(events.contains(.newSession(firstMessageId: try EncryptedMessage.decrypt(packets[0], authKey: W.key, direction: .clientToServer).messageId)))
        let result = try #require(events.compactMap { event -> [UInt8]? in
            guard case .result(token, .success(let bytes)) = event else { return nil }
            return bytes.bytes
        }.first)
        let pong = try #require(W.object(result) as? MTProto.Pong)
        // Pong has one constructor, so this always binds.
        if case .pong(let value) = pong { #expect(value.pingId == 42) }
        #expect(client.pendingCount == 0)
    }

    @Test func badServerSaltIsActedOnOnlyForOurMessages() throws {
        var client = Self.client()
        let (_, sent) = try Self.send(&client)
        // About a message we never sent: ignored, the salt stays.
        let forged = MTProto.BadMsgNotification.badServerSalt(.init(badMsgId: 4_444, badMsgSeqno: 1, errorCode: 48, newServerSalt: 99))
        let ignored = try client.receive(W.fromServer(id: Self.serverId(), seq: 0, body: forged.serialized()), now: Self.now)
        #expect(ignored.send.isEmpty && client.salts.current(now: Self.now) == W.salt)
        // About ours: the new salt is adopted and the request goes out again under it.
        let real = MTProto.BadMsgNotification.badServerSalt(.init(badMsgId: sent, badMsgSeqno: 1, errorCode: 48, newServerSalt: 77))
        let answer = try client.receive(W.fromServer(id: Self.serverId(0.1), seq: 0, body: real.serialized()), now: Self.now)
        #expect(client.salts.current(now: Self.now) == 77)
        let resent = try EncryptedMessage.decrypt(try #require(answer.send.first), authKey: W.key, direction: .clientToServer)
        #expect(resent.salt == 77 && resent.messageId != sent)
        // The same notification replayed is a duplicate msg_id.
        #expect(throws: EnvelopeError.messageIdRejected(.duplicate)) {
            try client.receive(W.fromServer(id: Self.serverId(0.1), seq: 0, body: real.serialized()), now: Self.now)
        }
    }

    @Test func clockCorrectionsComeOnlyFromNotificationsAboutOurMessages() throws {
        // Our clock runs 200 s fast: the server says our msg_id is too new (17) and its own msg_id carries its time.
        var client = Self.client()
        let (_, sent) = try Self.send(&client, now: Self.now + 200)
        let foreign = MTProto.BadMsgNotification.badMsgNotification(.init(badMsgId: sent + 4, badMsgSeqno: 1, errorCode: 17))
        _ = try client.receive(W.fromServer(id: Self.serverId(), seq: 0, body: foreign.serialized()), now: Self.now + 200)
        #expect(client.timeOffset == 0, "a notification about another message moved the clock")
        let ours = MTProto.BadMsgNotification.badMsgNotification(.init(badMsgId: sent, badMsgSeqno: 1, errorCode: 17))
        let answer = try client.receive(W.fromServer(id: Self.serverId(0.5), seq: 0, body: ours.serialized()), now: Self.now + 200)
        #expect(abs(client.timeOffset + 200) < 1)
        let resent = try EncryptedMessage.decrypt(try #require(answer.send.first), authKey: W.key, direction: .clientToServer)
        #expect(abs(MessageIdGenerator.time(of: resent.messageId) - Self.now) < 1)
        // A notification still needs an odd msg_id.
        #expect(throws: EnvelopeError.messageIdRejected(.wrongParity)) {
            try client.receive(W.fromServer(id: Self.serverId(0.6, 0), seq: 0, body: ours.serialized()), now: Self.now)
        }
    }

    @Test func serverMessagesOutsideTheWindowOrReplayedAreRefused() throws {
        var client = Self.client()
        let update: [UInt8] = [0x11, 0x22, 0x33, 0x44]
        #expect(throws: EnvelopeError.messageIdRejected(.tooOld)) {
            try client.receive(W.fromServer(id: Self.serverId(-301), seq: 1, body: update), now: Self.now)
        }
        #expect(throws: EnvelopeError.messageIdRejected(.tooNew)) {
            try client.receive(W.fromServer(id: Self.serverId(31), seq: 1, body: update), now: Self.now)
        }
        let packet = W.fromServer(id: Self.serverId(), seq: 1, body: update)
        #expect(try client.receive(packet, now: Self.now).events == [.update(update)])
        #expect(throws: EnvelopeError.messageIdRejected(.duplicate)) { try client.receive(packet, now: Self.now) }
        #expect(throws: EnvelopeError.sessionMismatch) {
            try client.receive(W.fromServer(id: Self.serverId(1), seq: 3, body: update, sessionId: 5), now: Self.now)
        }
    }

    @Test func seqNosAreChecked() throws {
        var client = Self.client()
        let (token, sent) = try Self.send(&client)
        let update: [UInt8] = [0x11, 0x22, 0x33, 0x44]
        _ = try client.receive(W.fromServer(id: Self.serverId(0), seq: 5, body: update), now: Self.now)
        #expect(throws: EnvelopeError.messageIdRejected(.seqNoTooLow)) {
            try client.receive(W.fromServer(id: Self.serverId(1), seq: 5, body: update), now: Self.now)
        }
        // A container with an odd seq_no is refused whole.
        let child = InnerMessage(messageId: Self.serverId(2), seqNo: 7, body: update)
        #expect(throws: EnvelopeError.seqNoParity) {
            try client.receive(W.fromServer(id: Self.serverId(3), seq: 9, body: ServiceCodec.container([child])), now: Self.now)
        }
        // A result with an even seq_no does not complete the request.
        let pong = MTProto.Pong.pong(.init(msgId: sent, pingId: 1)).serialized()
        let evenResult = ServiceCodec.rpcResult(requestId: sent, result: pong)
        let none = try client.receive(W.fromServer(id: Self.serverId(4), seq: 10, body: evenResult), now: Self.now)
        #expect(none.events.isEmpty && client.pendingCount == 1)
        let done = try client.receive(W.fromServer(id: Self.serverId(5), seq: 11, body: evenResult), now: Self.now)
        #expect(done.events == [.result(token: token, .success(AnswerBytes(pong)))])
    }

    @Test func containersNestingAndTheInflateBudget() throws {
        var client = ClientSession(
            authKey: W.key, salt: W.salt, timeOffset: 0, sessionId: W.sessionId,
            limits: TLReader.Limits(maxDepth: 64, maxUnpackedSize: 1 << 20))
        let update: [UInt8] = [0x11, 0x22, 0x33, 0x44]
        // A child whose msg_id is not below the container's is skipped; the other is delivered.
        let below = InnerMessage(messageId: Self.serverId(0), seqNo: 1, body: update + [1, 0, 0, 0])
        let above = InnerMessage(messageId: Self.serverId(5), seqNo: 3, body: update + [2, 0, 0, 0])
        var result = try client.receive(W.fromServer(id: Self.serverId(1), seq: 4, body: ServiceCodec.container([below, above])), now: Self.now)
        #expect(result.events == [.update(update + [1, 0, 0, 0])])
        // Packed inside packed, and a container inside a packed container child: nothing delivered.
        result = try client.receive(W.fromServer(id: Self.serverId(6), seq: 5, body: W.packed(W.packed(update))), now: Self.now)
        #expect(result.events.isEmpty)
        let inner = ServiceCodec.container([InnerMessage(messageId: Self.serverId(7), seqNo: 7, body: update)])
        let packedChild = InnerMessage(messageId: Self.serverId(8), seqNo: 8, body: W.packed(inner))
        result = try client.receive(W.fromServer(id: Self.serverId(9), seq: 8, body: ServiceCodec.container([packedChild])), now: Self.now)
        #expect(result.events.isEmpty)
        // Two packed children of 600 KB against a 1 MiB budget: the second is not inflated.
        let big = update + [UInt8](repeating: 0, count: 600_000)
        let children = [
            InnerMessage(messageId: Self.serverId(10), seqNo: 9, body: W.packed(big)),
            InnerMessage(messageId: Self.serverId(11), seqNo: 11, body: W.packed(big)),
        ]
        result = try client.receive(W.fromServer(id: Self.serverId(12), seq: 12, body: ServiceCodec.container(children)), now: Self.now)
        #expect(result.events.count == 1)
    }

    @Test func oversizedRequestsAreRefusedAndResendsAreBounded() throws {
        var client = Self.client()
        #expect(throws: ClientSession.SendError.bodyTooLarge(MessageLimits.maximumBodyLength + 4)) {
            try client.send([UInt8](repeating: 0, count: MessageLimits.maximumBodyLength + 4), now: Self.now)
        }
        let (token, first) = try Self.send(&client)
        var sent = first
        var failed = false
        for attempt in 0..<ClientSession.maximumAttempts {
            let salt = MTProto.BadMsgNotification.badServerSalt(
                .init(badMsgId: sent, badMsgSeqno: 1, errorCode: 48, newServerSalt: Int64(attempt)))
            let answer = try client.receive(W.fromServer(id: Self.serverId(Double(attempt)), seq: 0, body: salt.serialized()), now: Self.now)
            if answer.events.contains(.result(token: token, .failure(.init(code: -1, message: "RESEND_LIMIT_REACHED")))) {
                failed = true
                break
            }
            sent = try EncryptedMessage.decrypt(try #require(answer.send.first), authKey: W.key, direction: .clientToServer).messageId
        }
        #expect(failed)
    }

    @Test func futureSaltsAndNewSessionsUpdateTheSalts() throws {
        var client = Self.client()
        let (token, sent) = try Self.send(&client, MTProto.functions.getFutureSalts(num: 2).serialized())
        let salts = MTProto.FutureSalts.futureSalts(.init(reqMsgId: sent, now: Int32(Self.now), salts: [
            .futureSalt(.init(validSince: Int32(Self.now) - 10, validUntil: Int32(Self.now) + 1800, salt: 111)),
            .futureSalt(.init(validSince: Int32(Self.now) + 1800, validUntil: Int32(Self.now) + 3600, salt: 222)),
        ]))
        let answer = try client.receive(W.fromServer(id: Self.serverId(), seq: 1, body: salts.serialized()), now: Self.now)
        #expect(answer.events == [.result(token: token, .success(AnswerBytes(salts.serialized())))])
        #expect(client.salts.current(now: Self.now) == 111 && client.salts.current(now: Self.now + 2000) == 222)
        let created = MTProto.NewSession.newSessionCreated(.init(firstMsgId: sent, uniqueId: 1, serverSalt: 333))
        let events = try client.receive(W.fromServer(id: Self.serverId(1, 3), seq: 3, body: created.serialized()), now: Self.now).events
        #expect(events == [.newSession(firstMessageId: sent)])
        #expect(client.salts.current(now: Self.now) == 333)
        // An acknowledgement is not content-related and produces nothing; one with an odd seq_no is refused.
        let ack = MTProto.MsgsAck.msgsAck(.init(msgIds: [sent])).serialized()
        #expect(try client.receive(W.fromServer(id: Self.serverId(2), seq: 4, body: ack), now: Self.now).events.isEmpty)
    }
}
