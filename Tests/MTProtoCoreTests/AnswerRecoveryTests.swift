import CryptoUtils
import MTProtoApi
import MTProtoCore
import TLRuntime
import Testing

/// A request the server acknowledged (quick ack or `msgs_ack`) whose answer a lost connection took, found after a
/// reconnect too old to send again unchanged: the session asks the server what became of it (`msgs_state_req`) and
/// for its answer (`msg_resend_ans_req`) instead of sealing it anew, which would run it twice
/// (core.telegram.org/mtproto/service_messages_about_messages). All on virtual time, no sockets.
@Suite struct AnswerRecoveryTests {
    typealias W = Wire
    static let now = Wire.now
    /// Past `resendWithSameIdWithin` and past the server's 300 s window.
    static let later = now + 300
    static let call = ReconnectTests.call

    /// The MTProto service objects in client packets.
    static func objects(_ packets: [[UInt8]]) throws -> [any TLObject] {
        try Wire.messages(inClientPackets: packets).compactMap { Wire.object($0.body) }
    }

    /// The ids each `msgs_state_req` in `packets` asks about, with the question's msg_id.
    static func stateQuestions(_ packets: [[UInt8]]) throws -> [(id: Int64, ids: [Int64])] {
        try Wire.messages(inClientPackets: packets).compactMap { message in
            guard case .msgsStateReq(let req)? = Wire.object(message.body) as? MTProto.MsgsStateReq else { return nil }
            return (message.messageId, req.msgIds)
        }
    }

    /// The ids each `msg_resend_ans_req` in `packets` asks the answers of.
    static func answerQuestions(_ packets: [[UInt8]]) throws -> [[Int64]] {
        try Wire.messages(inClientPackets: packets).compactMap { message in
            guard case .msgResendAnsReq(let req)? = Wire.object(message.body) as? MTProto.MsgResendReq else {
                return nil
            }
            return req.msgIds
        }
    }

    /// The call bodies in client packets (a request sent again).
    static func calls(_ packets: [[UInt8]]) throws -> [InnerMessage] {
        try Wire.messages(inClientPackets: packets).filter { $0.body == call }
    }

    /// `msgs_state_info` from the server answering question `question` with `info`.
    static func stateInfo(_ question: Int64, _ info: [UInt8], at time: Double, seq: Int32 = 1) -> [UInt8] {
        let body = MTProto.MsgsStateInfo.msgsStateInfo(.init(reqMsgId: question, info: info)).serialized()
        return Wire.fromServer(id: Wire.id(time, 1), seq: seq, body: body)
    }

    /// A client that sent `call` at `now` and got the server's quick ack for it; returns the request's msg_id.
    static func quickAcked() throws -> (client: ClientSession, token: Int64, id: Int64) {
        var client = ClientSession(authKey: W.key, salt: W.salt, timeOffset: 0, sessionId: W.sessionId)
        let (token, packets) = try client.send(call, now: now)
        let ackToken = try EncryptedMessage.decrypt(packets[0], authKey: W.key, direction: .clientToServer)
            .quickAckToken
        #expect(client.quickAckReceived(ackToken) == [token])
        return (client, token, try #require(client.messageId(ofToken: token)))
    }

    /// A quick-acked request asked about after a reconnect: returns the client, the request and the question's id.
    static func asked() throws -> (client: ClientSession, token: Int64, id: Int64, question: Int64) {
        var (client, token, id) = try quickAcked()
        let again = client.resendAfterReconnect(now: later)
        let questions = try stateQuestions(again)
        try #require(questions.count == 1)
        #expect(questions[0].ids == [id])
        #expect(try calls(again).isEmpty, "no copy of the request")
        return (client, token, id, questions[0].id)
    }

    @Test func aQuickAckedRequest300SecondsOldIsAskedAboutNotSentAgain() throws {
        var (client, _, _, _) = try Self.asked()
        #expect(client.pendingCount == 1, "it still waits for its answer")
    }

    @Test func aRequestTheServerAcknowledgedWithMsgsAckIsAskedAbout() throws {
        var client = ClientSession(authKey: W.key, salt: W.salt, timeOffset: 0, sessionId: W.sessionId)
        let (_, packets) = try client.send(Self.call, now: Self.now)
        let id = try Wire.messages(inClientPackets: packets)[0].messageId
        // The server's msgs_ack came; its answer did not.
        let ack = MTProto.MsgsAck.msgsAck(.init(msgIds: [id])).serialized()
        _ = try client.receive(Wire.fromServer(id: Wire.id(Self.now + 1, 1), seq: 0, body: ack), now: Self.now + 1)
        let again = client.resendAfterReconnect(now: Self.later)
        #expect(try Self.stateQuestions(again).map(\.ids) == [[id]])
        #expect(try Self.calls(again).isEmpty)
    }

    @Test func aRecentQuickAckedRequestStillGoesUnchanged() throws {
        var (client, _, id) = try Self.quickAcked()
        let again = client.resendAfterReconnect(now: Self.now + 10)
        #expect(try Self.calls(again).map(\.messageId) == [id])
        #expect(try Self.stateQuestions(again).isEmpty)
    }

    @Test func aStaleRequestTheServerNeverAcknowledgedIsSealedAnew() throws {
        var client = ClientSession(authKey: W.key, salt: W.salt, timeOffset: 0, sessionId: W.sessionId)
        let (_, packets) = try client.send(Self.call, now: Self.now)
        let oldId = try Wire.messages(inClientPackets: packets)[0].messageId
        let again = client.resendAfterReconnect(now: Self.later)
        let copies = try Self.calls(again)
        #expect(copies.count == 1 && copies[0].messageId != oldId)
        #expect(try Self.stateQuestions(again).isEmpty)
    }

    @Test(arguments: [UInt8(2), 3])
    func notReceivedMeansItNeverRanAndGoesAnew(status: UInt8) throws {
        var (client, _, id, question) = try Self.asked()
        let (events, send) = try client.receive(Self.stateInfo(question, [status], at: Self.later), now: Self.later)
        #expect(events.isEmpty)
        let copies = try Self.calls(send)
        #expect(copies.count == 1 && copies[0].messageId != id)
        #expect(client.pendingCount == 1)
    }

    @Test func nothingKnownFailsTheCallRatherThanRunItTwice() throws {
        var (client, token, _, question) = try Self.asked()
        let (events, send) = try client.receive(Self.stateInfo(question, [1], at: Self.later), now: Self.later)
        #expect(events == [.result(token: token, .failure(ClientSession.answerLost))])
        #expect(try Self.calls(send).isEmpty)
        #expect(client.pendingCount == 0)
    }

    /// Received; with the answer generated; processed and generated; and acknowledged too.
    static let receivedStatuses: [UInt8] = [4, 68, 100, 108]

    @Test(arguments: receivedStatuses)
    func receivedWithAnAnswerAsksForTheAnswer(status: UInt8) throws {
        var (client, _, id, question) = try Self.asked()
        let (events, send) = try client.receive(Self.stateInfo(question, [status], at: Self.later), now: Self.later)
        #expect(events.isEmpty)
        #expect(try Self.answerQuestions(send) == [[id]])
        #expect(try Self.calls(send).isEmpty)
    }

    @Test func stillProcessingWaitsForTheAnswer() throws {
        var (client, token, id, question) = try Self.asked()
        let (events, send) = try client.receive(Self.stateInfo(question, [4 | 32], at: Self.later), now: Self.later)
        #expect(events.isEmpty)
        #expect(try Self.calls(send).isEmpty)
        #expect(try Self.answerQuestions(send).isEmpty)
        // The answer comes on its own.
        let result = ServiceCodec.rpcResult(requestId: id, result: [0x11, 0x22, 0x33, 0x44])
        let (answered, _) = try client.receive(
            Wire.fromServer(id: Wire.id(Self.later + 1, 1), seq: 3, body: result), now: Self.later + 1)
        #expect(answered == [.result(token: token, .success(AnswerBytes([0x11, 0x22, 0x33, 0x44])))])
    }

    @Test func anAnswerTheServerNoLongerHasFailsTheCall() throws {
        var (client, token, _, question) = try Self.asked()
        let (_, send) = try client.receive(Self.stateInfo(question, [4], at: Self.later), now: Self.later)
        let asking = try Wire.messages(inClientPackets: send).filter {
            Wire.object($0.body) is MTProto.MsgResendReq
        }
        try #require(asking.count == 1)
        // Instead of the answer, msgs_state_info about the msg_resend_ans_req: the answer is gone.
        let (events, again) = try client.receive(
            Self.stateInfo(asking[0].messageId, [4], at: Self.later + 1, seq: 3), now: Self.later + 1)
        #expect(events == [.result(token: token, .failure(ClientSession.answerLost))])
        #expect(try Self.calls(again).isEmpty)
    }

    @Test func aStatusForAQuestionNeverAskedChangesNothing() throws {
        var (client, _, _, question) = try Self.asked()
        let (events, send) = try client.receive(Self.stateInfo(question + 4, [2], at: Self.later), now: Self.later)
        #expect(events.isEmpty)
        #expect(try Self.calls(send).isEmpty)
        #expect(client.pendingCount == 1)
    }

    @Test func aShortStatusStringFailsTheIdsItSaysNothingAbout() throws {
        var (client, token, _, question) = try Self.asked()
        let (events, _) = try client.receive(Self.stateInfo(question, [], at: Self.later), now: Self.later)
        #expect(events == [.result(token: token, .failure(ClientSession.answerLost))])
    }

    /// A question the server refuses (here `bad_server_salt`) is asked again, each refusal an attempt of the request:
    /// past `maximumAttempts` the call fails, and no copy of it is ever sent.
    @Test func aQuestionRefusedAgainAndAgainFailsTheCallAndNeverCopiesIt() throws {
        var (client, token, _, question) = try Self.asked()
        var refused = question
        var events: [ClientSession.Event] = []
        for step in 0..<ClientSession.maximumAttempts {
            let time = Self.later + Double(step)
            let body = MTProto.BadMsgNotification.badServerSalt(
                .init(badMsgId: refused, badMsgSeqno: 1, errorCode: 48, newServerSalt: Wire.salt)
            ).serialized()
            let (received, send) = try client.receive(
                Wire.fromServer(id: Wire.id(time, 1), seq: Int32(2 * step), body: body), now: time)
            events += received
            #expect(try Self.calls(send).isEmpty)
            guard let next = try Self.stateQuestions(send).first else { break }
            refused = next.id
        }
        #expect(events == [.result(token: token, .failure(.init(code: -1, message: "RESEND_LIMIT_REACHED")))])
        #expect(client.pendingCount == 0)
    }

    /// `msgs_state_req` names at most `MessageLimits.maximumIdsPerRequest` ids: more acknowledged requests take
    /// several questions, each id in exactly one.
    @Test func questionsHoldAtMostTheIdLimit() throws {
        var client = ClientSession(authKey: W.key, salt: W.salt, timeOffset: 0, sessionId: W.sessionId)
        let count = MessageLimits.maximumIdsPerRequest + 1
        for _ in 0..<count { _ = try client.enqueue(Self.call) }
        let packets = client.flush(now: Self.now)
        for packet in packets {
            let token = try EncryptedMessage.decrypt(packet, authKey: W.key, direction: .clientToServer).quickAckToken
            _ = client.quickAckReceived(token)
        }
        let again = client.resendAfterReconnect(now: Self.later)
        let questions = try Self.stateQuestions(again)
        #expect(questions.map(\.ids.count) == [MessageLimits.maximumIdsPerRequest, 1])
        #expect(Set(questions.flatMap(\.ids)).count == count)
        #expect(try Self.calls(again).isEmpty)
    }
}

/// Both state machines, the server's application layer counting runs: a request run once whose answer was lost, the
/// connection back after 300 s, is answered from the server's cache and never run again.
@Suite struct AnswerRecoveryEndToEndTests {
    static let now = Wire.now
    static let later = now + 300

    /// Sends the call, lets the server run it and lose its answer, and brings the client back `later`.
    static func lostAnswer(_ pair: inout ReconnectTests.Pair) throws -> Int64 {
        let (token, packets) = try pair.client.send(ReconnectTests.call, now: Self.now)
        let quickAck = try EncryptedMessage.decrypt(packets[0], authKey: Wire.key, direction: .clientToServer)
            .quickAckToken
        _ = try pair.toServer(packets, now: Self.now)  // the answer is lost with the socket
        #expect(pair.runs == 1)
        #expect(pair.client.quickAckReceived(quickAck) == [token])
        return token
    }

    /// Exchanges packets both ways until neither side has anything to send.
    static func converse(_ pair: inout ReconnectTests.Pair, _ packets: [[UInt8]], now: Double) throws {
        var outgoing = packets
        for _ in 0..<8 where !outgoing.isEmpty {
            outgoing = pair.toClient(try pair.toServer(outgoing, now: now), now: now)
        }
    }

    @Test func aLostAnswerIsRecoveredWithoutRunningTheCallTwice() throws {
        var pair = ReconnectTests.Pair()
        let token = try Self.lostAnswer(&pair)
        try Self.converse(&pair, pair.client.resendAfterReconnect(now: Self.later), now: Self.later)
        #expect(pair.runs == 1, "the call ran \(pair.runs) times")
        #expect(pair.results == [token: 1])
        #expect(pair.client.pendingCount == 0)
    }

    @Test func anAnswerTheServerForgotFailsTheCallWithoutRunningItTwice() throws {
        var pair = ReconnectTests.Pair()
        _ = try Self.lostAnswer(&pair)
        // The server sends more than its resend cache keeps: the lost answer is forgotten.
        let pushes = (0..<(ServerSession.resendCacheEntries + 1)).map { _ in pair.server.push([0x01, 0x00, 0x00, 0x00])
        }
        _ = pair.server.seal(pushes, now: Self.now + 1)
        var failures: [ClientSession.RpcError] = []
        var outgoing = pair.client.resendAfterReconnect(now: Self.later)
        for _ in 0..<8 where !outgoing.isEmpty {
            var next: [[UInt8]] = []
            for packet in try pair.toServer(outgoing, now: Self.later) {
                let (events, send) = try pair.client.receive(packet, now: Self.later)
                next += send
                for case .result(_, .failure(let error)) in events { failures.append(error) }
            }
            outgoing = next
        }
        #expect(pair.runs == 1)
        #expect(failures == [ClientSession.answerLost])
    }
}

/// tg-server's side of the questions: `msgs_state_req` tells an answered request (4+32+64) from one only seen (4) and
/// one unknown (1); `msg_resend_ans_req` sends a cached answer again as a new message, and `msgs_state_info` about all
/// the ids when one has no answer to send.
@Suite struct ServerAnswerRecoveryTests {
    typealias S = ServerSessionTests
    static let now = Wire.now

    /// A session that ran one call and answered it; returns the call's msg_id and the answer's body.
    static func answered() throws -> (session: ServerSession, callId: Int64, answer: [UInt8]) {
        var session = S.session()
        let callId = Wire.id(Self.now)
        let reaction = try S.receive(&session, MTProto.functions.help_placeholder, id: callId)
        let call = try #require(reaction.calls.first)
        let answer = session.answer(call, result: [0x55, 0x66, 0x77, 0x88])
        _ = session.seal([answer], now: Self.now)
        return (session, callId, answer.body)
    }

    @Test func msgsStateReqTellsAnsweredFromSeenFromUnknown() throws {
        var (session, callId, _) = try Self.answered()
        let pingId = Wire.id(Self.now + 0.5)
        _ = try S.receive(&session, Wire.ping(), id: pingId, seq: 2)
        let ask = MTProto.MsgsStateReq.msgsStateReq(.init(msgIds: [callId, pingId, 4])).serialized()
        let replies = try S.sealed(&session, try S.receive(&session, ask, id: Wire.id(Self.now + 1), seq: 3))
        let infos = replies.compactMap { Wire.object($0.body) as? MTProto.MsgsStateInfo }
        guard case .msgsStateInfo(let info)? = infos.first else {
            Issue.record("expected msgs_state_info")
            return
        }
        #expect(info.info == [4 | 32 | 64, 4, 1])
    }

    @Test func msgResendAnsReqSendsTheAnswerAgainAsANewMessage() throws {
        var (session, callId, answer) = try Self.answered()
        let ask = MTProto.MsgResendReq.msgResendAnsReq(.init(msgIds: [callId, callId])).serialized()
        let reaction = try S.receive(&session, ask, id: Wire.id(Self.now + 1), seq: 3)
        #expect(reaction.replies.map(\.body) == [answer], "once, however often named, and no state info")
    }

    @Test func aMissingAnswerBringsStateInfoAboutEveryId() throws {
        var (session, callId, answer) = try Self.answered()
        let unknown = Wire.id(Self.now - 1)
        let ask = MTProto.MsgResendReq.msgResendAnsReq(.init(msgIds: [callId, unknown])).serialized()
        let askId = Wire.id(Self.now + 1)
        let reaction = try S.receive(&session, ask, id: askId, seq: 3)
        #expect(reaction.replies.first?.body == answer)
        let info = reaction.replies.compactMap { Wire.object($0.body) as? MTProto.MsgsStateInfo }
        guard info.count == 1, case .msgsStateInfo(let value) = info[0] else {
            Issue.record("expected one msgs_state_info")
            return
        }
        #expect(value.reqMsgId == askId && value.info == [4 | 32 | 64, 1])
        let tooMany = MTProto.MsgResendReq.msgResendAnsReq(.init(msgIds: Array(repeating: callId, count: 8193)))
        let refused = try S.receive(&session, tooMany.serialized(), id: Wire.id(Self.now + 2), seq: 5)
        #expect(refused.replies.isEmpty && refused.dropped.contains { $0.contains("8193") })
    }
}
