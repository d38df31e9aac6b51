import CryptoUtils
import MTProtoApi
import MTProtoCore
import TLRuntime
import Testing

/// The client packing the calls of one event-loop turn into `msg_container`s (core.telegram.org/mtproto/
/// service_messages "Containers"), driven with bytes and time alone: one packet per batch, every inner message with
/// its own msg_id and seq_no, answered, refused and re-sent one by one, within the container limits.
@Suite struct ClientContainerTests {
    typealias W = Wire
    static let now = Wire.now

    static func client() -> ClientSession {
        ClientSession(authKey: W.key, salt: W.salt, timeOffset: 0, sessionId: W.sessionId)
    }

    /// The top-level message of a client packet and the messages it carries.
    static func open(_ packet: [UInt8]) throws -> (top: InnerMessage, children: [InnerMessage]) {
        let message = try EncryptedMessage.decrypt(packet, authKey: W.key, direction: .clientToServer)
        let top = InnerMessage(messageId: message.messageId, seqNo: message.seqNo, body: message.body)
        guard top.constructorId == ServiceCodec.containerId else { return (top, [top]) }
        return (top, try ServiceCodec.parseContainer(top.body))
    }

    /// Queues `count` pings (ids 0..<count); returns their tokens.
    static func enqueuePings(_ client: inout ClientSession, _ count: Int) throws -> [Int64] {
        try (0..<count).map { try client.enqueue(W.ping(Int64($0))) }
    }

    @Test func callsQueuedTogetherLeaveInOneContainerAndAreAnsweredOneByOne() throws {
        var client = Self.client()
        var server = ServerSession(authKey: W.key, sessionId: W.sessionId, schedule: W.schedule, handshakeSalt: nil)
        let tokens = try Self.enqueuePings(&client, 64)
        #expect(client.queuedCount == 64 && client.pendingCount == 64)
        let packets = client.flush(now: Self.now)
        #expect(packets.count == 1, "64 calls of one turn went out as \(packets.count) packets")
        #expect(client.flush(now: Self.now).isEmpty, "a second flush with nothing queued sent something")
        let (top, children) = try Self.open(packets[0])
        #expect(top.constructorId == ServiceCodec.containerId && top.seqNo & 1 == 0)
        #expect(children.count == 64)
        #expect(Set(children.map(\.messageId)).count == 64, "inner messages share a msg_id")
        #expect(children.allSatisfy { $0.seqNo & 1 == 1 && $0.messageId < top.messageId })
        #expect(zip(children, children.dropFirst()).allSatisfy { $0.messageId < $1.messageId && $0.seqNo < $1.seqNo })

        // The server's state machine takes the container apart and answers every call.
        let message = try EncryptedMessage.decrypt(packets[0], authKey: W.key, direction: .clientToServer)
        let reaction = server.receive(message, now: Self.now)
        #expect(reaction.accepted)
        var answered: [Int64: Int64] = [:]
        for reply in server.seal(reaction.replies, now: Self.now) {
            for case .result(let token, .success(let bytes)) in try client.receive(reply, now: Self.now).events {
                guard case .pong(let pong)? = W.object(bytes.bytes) as? MTProto.Pong else { continue }
                answered[token] = pong.pingId
            }
        }
        #expect(answered.count == 64)
        for (index, token) in tokens.enumerated() { #expect(answered[token] == Int64(index)) }
        #expect(client.pendingCount == 0)
    }

    @Test func aRefusedContainerSendsEveryUnansweredCallAgainAndARefusedChildOnlyItself() throws {
        var client = Self.client()
        _ = try Self.enqueuePings(&client, 8)
        let (top, children) = try Self.open(try #require(client.flush(now: Self.now).first))
        // One call is answered first: it must not go again.
        let answer = ServiceCodec.rpcResult(
            requestId: children[0].messageId, result: MTProto.Pong.pong(.init(msgId: children[0].messageId, pingId: 0)).serialized())
        _ = try client.receive(W.fromServer(id: W.id(Self.now, 1), seq: 1, body: answer), now: Self.now)
        #expect(client.pendingCount == 7)

        // bad_server_salt naming the container: the seven others go again, together, under the new salt.
        let salt = MTProto.BadMsgNotification.badServerSalt(
            .init(badMsgId: top.messageId, badMsgSeqno: top.seqNo, errorCode: 48, newServerSalt: 77))
        let resent = try client.receive(W.fromServer(id: W.id(Self.now + 0.1, 1), seq: 2, body: salt.serialized()), now: Self.now)
        #expect(resent.send.count == 1)
        let again = try Self.open(resent.send[0])
        let pings = again.children.filter { $0.constructorId == ServiceCodec.constructorId(of: W.ping()) }
        #expect(pings.count == 7)
        #expect(Set(pings.map(\.body)) == Set(children.dropFirst().map(\.body)))
        #expect(pings.allSatisfy { $0.messageId > top.messageId }, "a re-sent call kept a refused msg_id")
        #expect(try EncryptedMessage.decrypt(resent.send[0], authKey: W.key, direction: .clientToServer).salt == 77)

        // bad_msg_notification (seq_no too low) naming one inner message: only that one goes again.
        let one = MTProto.BadMsgNotification.badMsgNotification(
            .init(badMsgId: pings[3].messageId, badMsgSeqno: pings[3].seqNo, errorCode: 32))
        let single = try client.receive(W.fromServer(id: W.id(Self.now + 0.2, 1), seq: 4, body: one.serialized()), now: Self.now)
        let singleMessages = try single.send.flatMap { try Self.open($0).children }
        #expect(singleMessages.filter { $0.body == pings[3].body }.count == 1)
        #expect(singleMessages.filter { $0.constructorId == ServiceCodec.constructorId(of: W.ping()) }.count == 1)
        #expect(client.pendingCount == 7)
    }

    @Test func resultsInAContainerAreEachCheckedAcknowledgedAndAnsweredOnce() throws {
        var client = Self.client()
        let tokens = try Self.enqueuePings(&client, 5)
        let (_, requests) = try Self.open(try #require(client.flush(now: Self.now).first))
        func pong(_ index: Int) -> [UInt8] {
            MTProto.Pong.pong(.init(msgId: requests[index].messageId, pingId: Int64(index))).serialized()
        }
        let ids = (0..<8).map { W.id(Self.now + Double($0) * 0.01, 1) }
        let floodWait = MTProto.RpcError.rpcError(.init(errorCode: 420, errorMessage: "FLOOD_WAIT_3")).serialized()
        let children = [
            // Answered: a plain result, an rpc_error, a packed result.
            InnerMessage(messageId: ids[0], seqNo: 1, body: ServiceCodec.rpcResult(requestId: requests[0].messageId, result: pong(0))),
            InnerMessage(messageId: ids[1], seqNo: 3, body: ServiceCodec.rpcResult(requestId: requests[1].messageId, result: floodWait)),
            InnerMessage(messageId: ids[2], seqNo: 5, body: ServiceCodec.rpcResult(requestId: requests[2].messageId, result: W.packed(pong(2)))),
            // Not answers: an even seq_no, a request never sent, a replayed msg_id, an id above the container's.
            InnerMessage(messageId: ids[3], seqNo: 6, body: ServiceCodec.rpcResult(requestId: requests[3].messageId, result: pong(3))),
            InnerMessage(messageId: ids[4], seqNo: 7, body: ServiceCodec.rpcResult(requestId: 12_345, result: pong(4))),
            InnerMessage(messageId: ids[0], seqNo: 7, body: ServiceCodec.rpcResult(requestId: requests[4].messageId, result: pong(4))),
            InnerMessage(messageId: ids[7], seqNo: 7, body: ServiceCodec.rpcResult(requestId: requests[4].messageId, result: pong(4))),
        ]
        let packet = W.fromServer(id: ids[6], seq: 8, body: ServiceCodec.container(children))
        let events = try client.receive(packet, now: Self.now).events
        #expect(events == [
            .result(token: tokens[0], .success(AnswerBytes(pong(0)))),
            .result(token: tokens[1], .failure(ClientSession.RpcError(code: 420, message: "FLOOD_WAIT_3"))),
            .result(token: tokens[2], .success(AnswerBytes(pong(2)))),
        ])
        #expect(client.pendingCount == 2)
        // Acknowledged: the content-related children that were accepted, answers or not.
        let ack = try Self.open(try #require(client.acknowledgements(now: Self.now).first)).top
        let acked = try #require({ () -> MTProto.MsgsAck.Cons_msgs_ack? in
            if case .msgsAck(let value)? = W.object(ack.body) as? MTProto.MsgsAck { return value } else { return nil }
        }())
        #expect(acked.msgIds == [ids[0], ids[1], ids[2], ids[4]])
        // The answer the even seq_no could not give comes properly: answered once.
        let late = ServiceCodec.container([
            InnerMessage(messageId: W.id(Self.now + 0.1, 1), seqNo: 9, body: ServiceCodec.rpcResult(requestId: requests[3].messageId, result: pong(3)))
        ])
        let lateEvents = try client.receive(W.fromServer(id: W.id(Self.now + 0.11, 1), seq: 10, body: late), now: Self.now).events
        #expect(lateEvents == [.result(token: tokens[3], .success(AnswerBytes(pong(3))))])
        #expect(client.pendingCount == 1)
    }

    @Test func afterAReconnectUnansweredInnerMessagesGoAgainUnderTheirOwnIds() throws {
        var client = Self.client()
        _ = try Self.enqueuePings(&client, 16)
        let (_, children) = try Self.open(try #require(client.flush(now: Self.now).first))
        for (index, child) in children.prefix(10).enumerated() {
            let answer = ServiceCodec.rpcResult(
                requestId: child.messageId, result: MTProto.Pong.pong(.init(msgId: child.messageId, pingId: 0)).serialized())
            let id = W.id(Self.now + Double(index) * 0.01, 1)
            _ = try client.receive(W.fromServer(id: id, seq: Int32(2 * index + 1), body: answer), now: Self.now)
        }
        #expect(client.pendingCount == 6)
        let resent = try client.resendAfterReconnect(now: Self.now + 1).flatMap { try Self.open($0).children }
        let pings = resent.filter { $0.constructorId == ServiceCodec.constructorId(of: W.ping()) }
        #expect(pings.map(\.messageId) == children.suffix(6).map(\.messageId))
        #expect(pings.map(\.seqNo) == children.suffix(6).map(\.seqNo))
    }

    @Test func batchesAreSplitAtTheContainerLimits() throws {
        var client = Self.client()
        let count = MessageLimits.maximumContainerMessages + 80
        _ = try Self.enqueuePings(&client, count)
        let packets = client.flush(now: Self.now)
        let sizes = try packets.map { try Self.open($0).children.count }
        #expect(sizes == [MessageLimits.maximumContainerMessages, 80])
        let ids = try packets.flatMap { try Self.open($0).children.map(\.messageId) }
        #expect(Set(ids).count == count)

        // Three 600 KB calls: no two fit in one container's byte budget.
        var big = Self.client()
        for _ in 0..<3 { _ = try big.enqueue([UInt8](repeating: 7, count: 600_000)) }
        let bigPackets = big.flush(now: Self.now)
        #expect(try bigPackets.map { try Self.open($0).children.count } == [1, 1, 1])
        #expect(throws: ClientSession.SendError.bodyTooLarge(MessageLimits.maximumBodyLength + 1)) {
            try big.enqueue([UInt8](repeating: 0, count: MessageLimits.maximumBodyLength + 1))
        }
    }

    @Test func aCallCancelledBeforeItsTurnEndsNeverLeaves() throws {
        var client = Self.client()
        let tokens = try Self.enqueuePings(&client, 3)
        #expect(client.cancel(token: tokens[1], now: Self.now).isEmpty)
        let children = try Self.open(try #require(client.flush(now: Self.now).first)).children
        #expect(children.map(\.body) == [W.ping(0), W.ping(2)])
        #expect(client.pendingCount == 2)
    }

    @Test func aCancelledBatchDropsItsQueuedCallsAndAsksForTheSentOnesInOneContainer() throws {
        var client = Self.client()
        let sent = try Self.enqueuePings(&client, 5)
        let children = try Self.open(try #require(client.flush(now: Self.now).first)).children
        // One of the sent calls is answered first: nothing is dropped for it.
        let answer = ServiceCodec.rpcResult(
            requestId: children[0].messageId, result: MTProto.Pong.pong(.init(msgId: children[0].messageId, pingId: 0)).serialized())
        _ = try client.receive(W.fromServer(id: W.id(Self.now, 1), seq: 1, body: answer), now: Self.now)
        let queued = try (5..<8).map { try client.enqueue(W.ping(Int64($0))) }
        #expect(client.pendingCount == 7)

        let drops = client.cancel(tokens: sent + queued, now: Self.now + 0.1)
        #expect(drops.count == 1, "the drops left as \(drops.count) packets")
        let dropped = try Self.open(drops[0]).children.compactMap { message -> Int64? in
            var reader = TLReader(message.body)
            return (try? MTProto.functions.parse(&reader) as? MTProto.functions.rpcDropAnswer)??.reqMsgId
        }
        #expect(dropped == children.dropFirst().map(\.messageId))
        #expect(client.queuedCount == 0 && client.flush(now: Self.now + 0.1).isEmpty)
        #expect(client.cancel(tokens: sent + queued, now: Self.now + 0.2).isEmpty)
    }
}
