import CryptoUtils
import MTProtoApi
import MTProtoCore
import TLRuntime
import Testing

/// The server's session state machine driven with bytes and time alone: each receive-side check, each service
/// message, and each bound on what a client can make it build.
@Suite struct ServerSessionTests {
    typealias W = Wire
    static let now = Wire.now

    static func session() -> ServerSession {
        ServerSession(authKey: W.key, sessionId: W.sessionId, schedule: W.schedule, handshakeSalt: nil)
    }

    /// Receives `body` as a fresh, valid content-related message at `now` + `offset`.
    static func receive(
        _ session: inout ServerSession, _ body: [UInt8], id: Int64? = nil, seq: Int32 = 1, offset: Double = 0
    ) throws -> ServerSession.Reaction {
        let message = try W.fromClient(id: id ?? W.id(now + offset), seq: seq, body: body)
        return session.receive(message, now: now + offset)
    }

    /// The replies' bodies as the client would read them, after sealing.
    static func sealed(_ session: inout ServerSession, _ reaction: ServerSession.Reaction) throws -> [InnerMessage] {
        try W.messages(in: session.seal(reaction.replies, now: now))
    }

    @Test func aPingGetsPongNewSessionAndAnAck() throws {
        var session = Self.session()
        let id = W.id(Self.now)
        let reaction = try Self.receive(&session, W.ping(9), id: id)
        #expect(reaction.accepted && reaction.calls.isEmpty && reaction.dropped.isEmpty)
        let messages = try Self.sealed(&session, reaction)
        #expect(messages.count == 3)
        guard case .newSessionCreated(let created)? = W.object(messages[0].body) as? MTProto.NewSession else {
            Issue.record("expected new_session_created first, got \(messages)")
            return
        }
        #expect(created.firstMsgId == id && created.serverSalt == W.salt)
        #expect(messages[0].messageId & 3 == 3, "new_session_created is sent on the server's own initiative")
        guard case .pong(let pong)? = W.object(messages[1].body) as? MTProto.Pong else {
            Issue.record("expected pong second")
            return
        }
        #expect(pong.msgId == id && pong.pingId == 9 && messages[1].messageId & 3 == 1)
        guard case .msgsAck(let ack)? = W.object(messages[2].body) as? MTProto.MsgsAck else {
            Issue.record("expected msgs_ack third")
            return
        }
        #expect(ack.msgIds == [id] && messages[2].seqNo & 1 == 0)
        // seq_nos: two content-related messages (1, 3), then an ack that counts both (4).
        #expect(messages.map(\.seqNo) == [1, 3, 4])
        // A second ping gets no second new_session_created.
        let again = try Self.sealed(&session, try Self.receive(&session, W.ping(10), seq: 3, offset: 1))
        #expect(again.filter { W.object($0.body) is MTProto.NewSession }.isEmpty)
    }

    @Test func msgIdWindowParityAndReplays() throws {
        var session = Self.session()
        let tooOld = try Self.receive(&session, W.ping(), id: W.id(Self.now - 301))
        #expect(try Self.sealed(&session, tooOld).compactMap { W.notificationCode($0.body) } == [16])
        #expect(!tooOld.accepted)
        let tooNew = try Self.receive(&session, W.ping(), id: W.id(Self.now + 31))
        #expect(try Self.sealed(&session, tooNew).compactMap { W.notificationCode($0.body) } == [17])
        let odd = try Self.receive(&session, W.ping(), id: W.id(Self.now) + 1)
        #expect(try Self.sealed(&session, odd).compactMap { W.notificationCode($0.body) } == [18])
        let id = W.id(Self.now)
        #expect(try Self.receive(&session, W.ping(), id: id).accepted)
        let replay = try Self.receive(&session, W.ping(), id: id)
        #expect(!replay.accepted && replay.replies.isEmpty && replay.dropped.count == 1)
    }

    @Test func aWrongSaltGetsBadServerSaltWithTheRightOne() throws {
        var session = Self.session()
        let message = try W.fromClient(id: W.id(Self.now), seq: 1, body: W.ping(), salt: 12345)
        let reaction = session.receive(message, now: Self.now)
        #expect(!reaction.accepted && reaction.calls.isEmpty)
        let replies = try Self.sealed(&session, reaction)
        guard case .badServerSalt(let bad)? = W.object(replies[0].body) as? MTProto.BadMsgNotification else {
            Issue.record("expected bad_server_salt, got \(replies)")
            return
        }
        #expect(bad.errorCode == 48 && bad.newServerSalt == W.salt && bad.badMsgId == message.messageId)
        // The previous period's salt and the key's handshake salt are still accepted.
        let previous = W.schedule.salt(authKeyId: W.key.id, time: Self.now - Double(SaltSchedule.period))
        #expect(session.receive(try W.fromClient(id: W.id(Self.now + 1), seq: 3, body: W.ping(), salt: previous), now: Self.now + 1).accepted)
        var fresh = ServerSession(authKey: W.key, sessionId: 2, schedule: W.schedule, handshakeSalt: 777)
        #expect(fresh.receive(try W.fromClient(id: W.id(Self.now), seq: 1, body: W.ping(), salt: 777, sessionId: 2), now: Self.now).accepted)
    }

    @Test func seqNoMustFitItsNeighboursAndItsContent() throws {
        var session = Self.session()
        #expect(try Self.receive(&session, W.ping(), id: W.id(Self.now), seq: 5).accepted)
        // Lower than the message before allows: 32.
        var reaction = try Self.receive(&session, W.ping(), id: W.id(Self.now + 1), seq: 5)
        #expect(try Self.sealed(&session, reaction).compactMap { W.notificationCode($0.body) } == [32])
        // Higher than the message after allows: 33.
        #expect(try Self.receive(&session, W.ping(), id: W.id(Self.now + 3), seq: 9).accepted)
        reaction = try Self.receive(&session, W.ping(), id: W.id(Self.now + 2), seq: 11)
        #expect(try Self.sealed(&session, reaction).compactMap { W.notificationCode($0.body) } == [33])
        // An API call with an even seq_no: 35. An acknowledgement with an odd one: 34.
        reaction = try Self.receive(&session, [0x78, 0x56, 0x34, 0x12], id: W.id(Self.now + 4), seq: 10)
        #expect(try Self.sealed(&session, reaction).compactMap { W.notificationCode($0.body) } == [35])
        #expect(reaction.calls.isEmpty)
        let ack = MTProto.MsgsAck.msgsAck(.init(msgIds: [1])).serialized()
        reaction = try Self.receive(&session, ack, id: W.id(Self.now + 5), seq: 11)
        #expect(try Self.sealed(&session, reaction).compactMap { W.notificationCode($0.body) } == [34])
        // A container with an odd seq_no: 34.
        let children = [InnerMessage(messageId: W.id(Self.now + 6), seqNo: 13, body: W.ping())]
        reaction = try Self.receive(&session, ServiceCodec.container(children), id: W.id(Self.now + 7), seq: 13)
        #expect(try Self.sealed(&session, reaction).compactMap { W.notificationCode($0.body) } == [34])
    }

    /// Pyrogram opens every session with `ping` as not content-related (an even seq_no); Telegram answers it, and so
    /// must the server (it answered bad_msg_notification 35 and dropped it).
    @Test func aPingWithAnEvenSeqNoIsAnswered() throws {
        var session = Self.session()
        let id = W.id(Self.now)
        let reaction = try Self.receive(&session, W.ping(7), id: id, seq: 0)
        #expect(reaction.accepted && reaction.dropped.isEmpty)
        let replies = try Self.sealed(&session, reaction)
        #expect(replies.compactMap { W.notificationCode($0.body) }.isEmpty)
        let pongs = replies.compactMap { W.object($0.body) as? MTProto.Pong }
        guard case .pong(let pong)? = pongs.first else {
            Issue.record("expected a pong, got \(replies)")
            return
        }
        #expect(pongs.count == 1 && pong.msgId == id && pong.pingId == 7)
        // Not content-related, so not acknowledged.
        #expect(replies.compactMap { W.object($0.body) as? MTProto.MsgsAck }.isEmpty)
        // The next content-related message still fits: seq_no 1 after an even 0.
        #expect(try Self.receive(&session, W.ping(8), id: W.id(Self.now + 1), seq: 1).accepted)
    }

    @Test func containerChildrenNeedLowerIdsAndNoNestedContainer() throws {
        var session = Self.session()
        let containerId = W.id(Self.now + 1)
        let good = InnerMessage(messageId: W.id(Self.now), seqNo: 1, body: W.ping(1))
        let late = InnerMessage(messageId: W.id(Self.now + 2), seqNo: 3, body: W.ping(2))
        let reaction = try Self.receive(&session, ServiceCodec.container([good, late]), id: containerId, seq: 4)
        let replies = try Self.sealed(&session, reaction)
        let pongs = replies.compactMap { W.object($0.body) as? MTProto.Pong }
        #expect(pongs.count == 1, "only the child below the container's msg_id is answered")
        #expect(replies.compactMap { W.notificationCode($0.body) } == [64])
        // container → gzip_packed → container: two levels of container.
        let innerContainer = ServiceCodec.container([InnerMessage(messageId: W.id(Self.now + 3), seqNo: 5, body: W.ping(3))])
        let nested = InnerMessage(messageId: W.id(Self.now + 4), seqNo: 6, body: W.packed(innerContainer))
        let outer = try Self.receive(&session, ServiceCodec.container([nested]), id: W.id(Self.now + 5), seq: 6)
        let nestedReplies = try Self.sealed(&session, outer)
        #expect(nestedReplies.compactMap { W.object($0.body) as? MTProto.Pong }.isEmpty)
        #expect(nestedReplies.compactMap { W.notificationCode($0.body) } == [64])
        // gzip_packed → gzip_packed: refused.
        let doublePacked = try Self.receive(&session, W.packed(W.packed(W.ping(4))), id: W.id(Self.now + 6), seq: 7)
        #expect(doublePacked.dropped.contains { $0.contains("nestedPackedObject") })
        #expect(try Self.sealed(&session, doublePacked).compactMap { W.object($0.body) as? MTProto.Pong }.isEmpty)
        // A packed container at the top is one level of each: answered.
        let packedContainer = ServiceCodec.container([InnerMessage(messageId: W.id(Self.now + 7), seqNo: 9, body: W.ping(5))])
        let fine = try Self.receive(&session, W.packed(packedContainer), id: W.id(Self.now + 8), seq: 10)
        #expect(try Self.sealed(&session, fine).compactMap { W.object($0.body) as? MTProto.Pong }.count == 1)
    }

    @Test func everyPackedChildDrawsOnOneInflateBudget() throws {
        // Three children each inflating 900 KB against the session's 2 MiB budget: the third is refused.
        var session = Self.session()
        let big = MTProto.functions.ping(pingId: 1).serialized() + [UInt8](repeating: 0, count: 900_000)
        let children = (0..<3).map { i in
            InnerMessage(messageId: W.id(Self.now + Double(i) * 0.01), seqNo: Int32(2 * i + 1), body: W.packed(big))
        }
        let reaction = try Self.receive(&session, ServiceCodec.container(children), id: W.id(Self.now + 1), seq: 6)
        #expect(reaction.dropped.filter { $0.contains("malformedPackedObject") }.count == 1)
        #expect(try Self.sealed(&session, reaction).compactMap { W.object($0.body) as? MTProto.Pong }.count == 2)
    }

    @Test func msgsStateReqAnswersPerIdAndRefusesOversizedRequests() throws {
        var session = Self.session()
        let seen = W.id(Self.now)
        _ = try Self.receive(&session, W.ping(), id: seen)
        let request = MTProto.MsgsStateReq.msgsStateReq(.init(msgIds: [seen, 4, seen])).serialized()
        let reaction = try Self.receive(&session, request, id: W.id(Self.now + 1), seq: 3)
        let replies = try Self.sealed(&session, reaction)
        guard case .msgsStateInfo(let info)? = replies.compactMap({ W.object($0.body) as? MTProto.MsgsStateInfo }).first else {
            Issue.record("expected msgs_state_info")
            return
        }
        #expect(info.info == [4, 1, 4])
        let tooMany = MTProto.MsgsStateReq.msgsStateReq(.init(msgIds: Array(repeating: seen, count: 8193))).serialized()
        let refused = try Self.receive(&session, tooMany, id: W.id(Self.now + 2), seq: 5)
        #expect(refused.replies.isEmpty && refused.dropped.contains { $0.contains("8193") })
    }

    @Test func msgResendReqSendsEachCachedMessageOnceWithinItsByteBudget() throws {
        var session = Self.session()
        let call = try Self.receive(&session, MTProto.functions.help_placeholder, id: W.id(Self.now))
        let request = try #require(call.calls.first)
        // A 600 KB answer is cached for re-sending.
        let answer = session.answer(request, result: [UInt8](repeating: 1, count: 600_000))
        let sent = try W.messages(in: session.seal([answer], now: Self.now))
        let answerId = try #require(sent.first { $0.body.count > 500_000 }?.messageId)
        // The same id named 8,192 times is re-sent once, not 8,192 times (which would be 4.9 GB).
        let attack = MTProto.MsgResendReq.msgResendReq(.init(msgIds: Array(repeating: answerId, count: 8192))).serialized()
        let reaction = try Self.receive(&session, attack, id: W.id(Self.now + 1), seq: 3)
        #expect(reaction.replies.count == 1)
        #expect(reaction.replies.reduce(0) { $0 + $1.body.count } < 700_000)
        // Two distinct large answers exceed the 1 MiB budget together: only the first is re-sent.
        let second = session.answer(request, result: [UInt8](repeating: 2, count: 600_000))
        let secondId = try #require(try W.messages(in: session.seal([second], now: Self.now)).first { $0.body.count > 500_000 }?.messageId)
        let both = MTProto.MsgResendReq.msgResendReq(.init(msgIds: [answerId, secondId])).serialized()
        let capped = try Self.receive(&session, both, id: W.id(Self.now + 2), seq: 5)
        #expect(capped.replies.count == 1)
        #expect(capped.dropped.contains { $0.contains("bytes") })
        // More than 8,192 ids: refused whole.
        let tooMany = MTProto.MsgResendReq.msgResendReq(.init(msgIds: Array(repeating: answerId, count: 8193))).serialized()
        #expect(try Self.receive(&session, tooMany, id: W.id(Self.now + 3), seq: 7).replies.isEmpty)
    }

    @Test func futureSaltsDestroySessionDropAnswerAndPingDelayDisconnect() throws {
        var session = Self.session()
        var reaction = try Self.receive(&session, MTProto.functions.getFutureSalts(num: 1000).serialized(), id: W.id(Self.now))
        let salts = try #require(try Self.sealed(&session, reaction).compactMap { W.futureSalts($0.body) }.first)
        #expect(salts.count == 64 && salts[0] == W.salt)
        reaction = try Self.receive(&session, MTProto.functions.destroySession(sessionId: 99).serialized(), id: W.id(Self.now + 1), seq: 3)
        #expect(reaction.destroySessions.map(\.sessionId) == [99])
        #expect(reaction.destroySessions.map(\.requestMessageId) == [W.id(Self.now + 1)])
        reaction = try Self.receive(&session, MTProto.functions.destroySession(sessionId: W.sessionId).serialized(), id: W.id(Self.now + 2), seq: 5)
        #expect(reaction.destroySessions.isEmpty && reaction.replies.count == 1)
        reaction = try Self.receive(&session, MTProto.functions.rpcDropAnswer(reqMsgId: 5).serialized(), id: W.id(Self.now + 3), seq: 7)
        let result = try #require(reaction.replies.first)
        let (requestId, body) = try ServiceCodec.parseRpcResult(result.body)
        #expect(requestId == W.id(Self.now + 3) && W.object(body) is MTProto.RpcDropAnswer)
        reaction = try Self.receive(&session, MTProto.functions.pingDelayDisconnect(pingId: 1, disconnectDelay: 75).serialized(), id: W.id(Self.now + 4), seq: 9)
        #expect(reaction.disconnectDelay == 75)
    }

    @Test func wrappersArePeeledAndTheLayerRemembered() throws {
        var session = Self.session()
        let query: [UInt8] = [0x11, 0x22, 0x33, 0x44, 1, 0, 0, 0]
        var writer = TLWriter()
        writer.writeUInt32(QueryWrappers.invokeWithLayer)
        writer.writeInt32(229)
        writer.writeUInt32(QueryWrappers.invokeWithoutUpdates)
        writer.writeUInt32(QueryWrappers.initConnection)
        writer.writeUInt32(3)  // proxy and params present
        writer.writeInt32(1)
        for text in ["model", "system", "app", "en", "", "en"] { writer.writeString(text) }
        writer.writeUInt32(0x7558_8b3f)
        writer.writeString("proxy.example")
        writer.writeInt32(443)
        writer.writeUInt32(0x99c1_d49d)  // jsonObject { "a": [null] }
        writer.writeVectorHeader(count: 1)
        writer.writeUInt32(0xc0de_1bd9)
        writer.writeString("a")
        writer.writeUInt32(0xf744_4763)
        writer.writeVectorHeader(count: 1)
        writer.writeUInt32(0x3f6d_7b68)
        writer.writeRaw(query)
        let reaction = try Self.receive(&session, writer.takeBytes(), id: W.id(Self.now))
        let call = try #require(reaction.calls.first)
        #expect(call.query == query && call.layer == 229 && call.withoutUpdates)
        // A later bare call keeps the layer; a broken wrapper gets INPUT_REQUEST_INVALID.
        #expect(try Self.receive(&session, query, id: W.id(Self.now + 1), seq: 3).calls.first?.layer == 229)
        let broken = try Self.receive(&session, [0x0d, 0x0d, 0x9b, 0xda], id: W.id(Self.now + 2), seq: 5)
        let error = try #require(broken.replies.first)
        let (_, body) = try ServiceCodec.parseRpcResult(error.body)
        let value = try #require(W.rpcError(body))
        #expect(value.code == 400 && value.message == "INPUT_REQUEST_INVALID")
    }

    @Test func sealingSplitsContainersAndRefusesOversizedAnswers() throws {
        var session = Self.session()
        let call = try #require(try Self.receive(&session, [0x11, 0x22, 0x33, 0x44], id: W.id(Self.now)).calls.first)
        // 3,000 small replies: containers of at most 1,020 messages each.
        let small = (0..<3000).map { _ in session.answer(call, result: [1, 0, 0, 0]) }
        let packets = session.seal(small, now: Self.now)
        #expect(packets.count == 3)
        for packet in packets { #expect(try W.messages(in: packet).count <= MessageLimits.maximumContainerMessages) }
        // Two 700 KB answers do not share a container (≈ 1 MB each at most).
        let large = (0..<2).map { _ in session.answer(call, result: [UInt8](repeating: 3, count: 700_000)) }
        #expect(session.seal(large, now: Self.now).count == 2)
        // An answer larger than a message may be becomes RESPONSE_TOO_LARGE.
        let huge = session.answer(call, result: [UInt8](repeating: 4, count: MessageLimits.maximumBodyLength + 4))
        let replaced = try W.messages(in: session.seal([huge], now: Self.now))
        let (_, body) = try ServiceCodec.parseRpcResult(replaced[0].body)
        let value = try #require(W.rpcError(body))
        #expect(value.code == 500 && value.message == "RESPONSE_TOO_LARGE")
    }
}

extension MTProto.functions {
    /// An API call the MTProto layer does not know: it reaches the caller as a `Call`.
    static var help_placeholder: [UInt8] { [0x11, 0x22, 0x33, 0x44] }
}
