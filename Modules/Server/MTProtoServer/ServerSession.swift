import CryptoUtils
import Foundation
import MTProtoApi
public import MTProtoCore
import TLRuntime
import TelegramApi

/// One client session on the server (MTProto §Sessions, §Service Messages): message ids, sequence numbers, salts,
/// acknowledgements and the service messages the MTProto layer answers by itself. API calls are handed back to
/// the caller as `RPCCall`s.
///
/// `@unchecked Sendable`: a session is shared by the connections that carry it (a client may reconnect), and all
/// its state is read and written under `lock`.
public final class ServerSession: @unchecked Sendable {
    /// A message the session wants sent.
    public struct Outgoing: Sendable, Equatable {
        public let body: [UInt8]
        public let contentRelated: Bool
        /// A response to a client message (msg_id ≡ 1 mod 4) or sent on the server's own initiative (≡ 3).
        public let isResponse: Bool
    }

    /// What receiving one message leads to.
    public struct Reaction: Sendable {
        public var replies: [Outgoing] = []
        public var calls: [RPCCall] = []
        /// `ping_delay_disconnect`: close the connection after this many seconds of silence.
        public var disconnectDelay: Int32?
        /// A security check failed: drop the message (the connection may stay).
        public var dropped: String?
    }

    public let authKey: AuthKey
    public let sessionId: Int64
    public let dcId: Int32
    private let schedule: SaltSchedule
    private let handshakeSalt: Int64?
    private let lock = NSLock()
    private var messageIds = MessageIdGenerator()
    private var sequence = SequenceNumbers()
    private var validator = MessageIdValidator(peer: .client)
    private var announced = false
    private var layer: Int32?
    private var acks = AckQueue()
    /// Recently sent messages, for msg_resend_req.
    private var sent: [Int64: InnerMessage] = [:]
    private var sentOrder: [Int64] = []
    static let resendCacheSize = 256

    public init(authKey: AuthKey, sessionId: Int64, dcId: Int32, schedule: SaltSchedule, handshakeSalt: Int64?) {
        self.authKey = authKey
        self.sessionId = sessionId
        self.dcId = dcId
        self.schedule = schedule
        self.handshakeSalt = handshakeSalt
    }

    /// Processes one decrypted message at server time `now`.
    public func receive(_ message: DecryptedMessage, now: Double) -> Reaction {
        lock.lock()
        defer { lock.unlock() }
        var reaction = Reaction()
        let inner = InnerMessage(messageId: message.messageId, seqNo: message.seqNo, body: message.body)
        // §Time synchronization / bad_msg_notification: a msg_id out of the window, or of the wrong parity.
        if let rejection = validator.accept(message.messageId, now: now) {
            switch rejection {
            case .duplicate: reaction.dropped = "duplicate msg_id"
            case .tooOld: reaction.replies.append(badMessage(inner, code: 16))
            case .tooNew: reaction.replies.append(badMessage(inner, code: 17))
            case .wrongParity: reaction.replies.append(badMessage(inner, code: 18))
            }
            return reaction
        }
        // §Server Salt: a wrong salt gets bad_server_salt with the right one; the client re-sends.
        if !schedule.isValid(message.salt, authKeyId: authKey.id, time: now, handshakeSalt: handshakeSalt) {
            let salt = schedule.salt(authKeyId: authKey.id, time: now)
            let answer = MTProto.BadMsgNotification.badServerSalt(
                .init(badMsgId: message.messageId, badMsgSeqno: message.seqNo, errorCode: 48, newServerSalt: salt))
            reaction.replies.append(Outgoing(body: answer.serialized(), contentRelated: false, isResponse: true))
            return reaction
        }
        if !announced {
            announced = true
            let created = MTProto.NewSession.newSessionCreated(
                .init(
                    firstMsgId: message.messageId, uniqueId: Int64(bitPattern: SecureRandom.uint64()),
                    serverSalt: schedule.salt(authKeyId: authKey.id, time: now)))
            reaction.replies.append(Outgoing(body: created.serialized(), contentRelated: true, isResponse: false))
        }
        handle(inner, now: now, into: &reaction)
        return reaction
    }

    private func handle(_ message: InnerMessage, now: Double, into reaction: inout Reaction) {
        if message.isContentRelated { acks.add(message.messageId) }
        guard let id = message.constructorId else {
            reaction.dropped = "empty body"
            return
        }
        switch id {
        case ServiceCodec.containerId:
            guard let messages = try? ServiceCodec.parseContainer(message.body) else {
                reaction.dropped = "malformed container"
                return
            }
            for child in messages {
                if validator.accept(child.messageId, now: now) != nil { continue }
                handle(child, now: now, into: &reaction)
            }
            return
        case ServiceCodec.gzipPackedId:
            guard let body = try? ServiceCodec.unpack(message.body) else {
                reaction.dropped = "malformed gzip_packed"
                return
            }
            handle(InnerMessage(messageId: message.messageId, seqNo: message.seqNo, body: body), now: now, into: &reaction)
            return
        default:
            break
        }
        var reader = TLReader(message.body)
        if let object = try? MTProto.parseObject(&reader) {
            handleService(object, message: message, now: now, into: &reaction)
            return
        }
        // Peel invokeWithLayer, initConnection, invokeWithoutUpdates and invokeAfterMsg(s) off the call, then the
        // innermost query is either an MTProto function (ping, …) or an API method.
        let query: [UInt8]
        do {
            query = try unwrapQuery(message.body)
        } catch {
            reaction.replies.append(rpcError(message.messageId, code: 400, text: "INPUT_REQUEST_INVALID"))
            reaction.dropped = "malformed wrapper: \(error)"
            return
        }
        reader = TLReader(query)
        if let function = try? MTProto.functions.parse(&reader) {
            handleServiceCall(function, message: message, now: now, into: &reaction)
            return
        }
        reader = TLReader(query)
        do {
            let function = try Api.functions.parse(&reader)
            reaction.calls.append(
                RPCCall(
                    requestMessageId: message.messageId, function: function, layer: layer, authKeyId: authKey.id,
                    sessionId: sessionId, dcId: dcId))
        } catch {
            let name = ServiceCodec.constructorId(of: query).map { String($0, radix: 16) } ?? "empty"
            reaction.replies.append(rpcError(message.messageId, code: 400, text: "INPUT_METHOD_INVALID_\(name)"))
            reaction.dropped = "undecodable call: \(error)"
        }
    }

    /// The innermost query of a call, past the wrappers of API §Invoking API methods: invokeWithLayer (whose layer
    /// the session remembers), initConnection, invokeWithoutUpdates, invokeAfterMsg and invokeAfterMsgs.
    private func unwrapQuery(_ body: [UInt8]) throws(TLDecodingError) -> [UInt8] {
        var reader = TLReader(body)
        while true {
            let start = reader.offset
            switch try reader.readUInt32() {
            case 0xda9b_0d0d:  // invokeWithLayer layer:int query:!X
                layer = try reader.readInt32()
            case 0xc1cd_5ea9:  // initConnection flags:# api_id:int device_model … query:!X
                let flags = try reader.readUInt32()
                _ = try reader.readInt32()
                for _ in 0..<6 { _ = try reader.readString() }
                if flags & 1 != 0 { _ = try Api.InputClientProxy.parse(&reader) }
                if flags & 2 != 0 { _ = try Api.JSONValue.parse(&reader) }
            case 0xbf94_59b7:  // invokeWithoutUpdates query:!X
                break
            case 0xcb9f_372d:  // invokeAfterMsg msg_id:long query:!X
                _ = try reader.readInt64()
            case 0x3dc4_b4f0:  // invokeAfterMsgs msg_ids:Vector<long> query:!X
                _ = try reader.readVector(boxed: true, minElementSize: 8, TLParse.int64)
            default:
                return Array(body[start...])
            }
        }
    }

    /// Service objects a client may send on its own.
    private func handleService(_ object: any TLObject, message: InnerMessage, now: Double, into reaction: inout Reaction) {
        switch object {
        case is MTProto.MsgsAck:
            break
        case let request as MTProto.MsgsStateReq:
            guard case .msgsStateReq(let req) = request else { return }
            // §Request for Message Status: 4 = received (this session accepted that msg_id), 1 = nothing known.
            let info = req.msgIds.map { validator.hasSeen($0) ? UInt8(4) : UInt8(1) }
            let answer = MTProto.MsgsStateInfo.msgsStateInfo(.init(reqMsgId: message.messageId, info: info))
            reaction.replies.append(Outgoing(body: answer.serialized(), contentRelated: true, isResponse: true))
        case let request as MTProto.MsgResendReq:
            guard case .msgResendReq(let req) = request else { return }
            // §Explicit Request to Re-Send Messages: send again what is still cached, as new messages.
            for old in req.msgIds.compactMap({ sent[$0] }) {
                reaction.replies.append(Outgoing(body: old.body, contentRelated: old.isContentRelated, isResponse: true))
            }
        default:
            reaction.dropped = "unexpected service object"
        }
    }

    /// MTProto functions: ping, get_future_salts, destroy_session, msgs_state_req, msg_resend_req, rpc_drop_answer.
    private func handleServiceCall(
        _ function: any TLFunction, message: InnerMessage, now: Double, into reaction: inout Reaction
    ) {
        switch function {
        case let ping as MTProto.functions.ping:
            let pong = MTProto.Pong.pong(.init(msgId: message.messageId, pingId: ping.pingId))
            reaction.replies.append(Outgoing(body: pong.serialized(), contentRelated: true, isResponse: true))
        case let ping as MTProto.functions.pingDelayDisconnect:
            let pong = MTProto.Pong.pong(.init(msgId: message.messageId, pingId: ping.pingId))
            reaction.replies.append(Outgoing(body: pong.serialized(), contentRelated: true, isResponse: true))
            reaction.disconnectDelay = ping.disconnectDelay
        case let request as MTProto.functions.getFutureSalts:
            let salts = schedule.futureSalts(authKeyId: authKey.id, time: now, count: Int(request.num)).map {
                MTProto.FutureSalt.futureSalt(.init(validSince: $0.validSince, validUntil: $0.validUntil, salt: $0.salt))
            }
            let answer = MTProto.FutureSalts.futureSalts(
                .init(reqMsgId: message.messageId, now: Int32(clamping: Int64(now)), salts: salts))
            // future_salts is sent as is, not inside rpc_result (MTProto §Request for several future salts).
            reaction.replies.append(Outgoing(body: answer.serialized(), contentRelated: true, isResponse: true))
        case let request as MTProto.functions.destroySession:
            let answer: MTProto.DestroySessionRes =
                request.sessionId == sessionId
                ? .destroySessionNone(.init(sessionId: request.sessionId))
                : .destroySessionOk(.init(sessionId: request.sessionId))
            reaction.replies.append(result(message.messageId, answer.serialized()))
        case is MTProto.functions.rpcDropAnswer:
            reaction.replies.append(result(message.messageId, MTProto.RpcDropAnswer.rpcAnswerUnknown.serialized()))
        default:
            reaction.replies.append(rpcError(message.messageId, code: 400, text: "METHOD_NOT_IMPLEMENTED"))
        }
    }

    func result(_ requestId: Int64, _ body: [UInt8]) -> Outgoing {
        Outgoing(body: ServiceCodec.rpcResult(requestId: requestId, result: body), contentRelated: true, isResponse: true)
    }

    func rpcError(_ requestId: Int64, code: Int32, text: String) -> Outgoing {
        result(requestId, MTProto.RpcError.rpcError(.init(errorCode: code, errorMessage: text)).serialized())
    }

    /// The answer to an API call as a message to send.
    public func answer(_ call: RPCCall, with response: RPCResponse) -> Outgoing {
        switch response {
        case .result(let bytes): return result(call.requestMessageId, bytes)
        case .error(let code, let message): return rpcError(call.requestMessageId, code: code, text: message)
        }
    }

    private func badMessage(_ message: InnerMessage, code: Int32) -> Outgoing {
        let notification = MTProto.BadMsgNotification.badMsgNotification(
            .init(badMsgId: message.messageId, badMsgSeqno: message.seqNo, errorCode: code))
        return Outgoing(body: notification.serialized(), contentRelated: false, isResponse: true)
    }

    /// Encrypts `messages` (with any pending acknowledgements) into one packet: a single message, or a container.
    public func seal(_ messages: [Outgoing], now: Double) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        var batch = messages
        if acks.count > 0 {
            let ack = MTProto.MsgsAck.msgsAck(.init(msgIds: acks.take()))
            batch.append(Outgoing(body: ack.serialized(), contentRelated: false, isResponse: true))
        }
        guard !batch.isEmpty else { return nil }
        let inner = batch.map { outgoing in
            let id = messageIds.next(outgoing.isResponse ? .serverResponse : .serverInitiated, now: now)
            let message = InnerMessage(
                messageId: id, seqNo: sequence.next(contentRelated: outgoing.contentRelated), body: outgoing.body)
            remember(message)
            return message
        }
        let envelope: InnerMessage
        if inner.count == 1 {
            envelope = inner[0]
        } else {
            envelope = InnerMessage(
                messageId: messageIds.next(.serverResponse, now: now), seqNo: sequence.next(contentRelated: false),
                body: ServiceCodec.container(inner))
        }
        return EncryptedMessage.encrypt(
            authKey: authKey, direction: .serverToClient, salt: schedule.salt(authKeyId: authKey.id, time: now),
            sessionId: sessionId, messageId: envelope.messageId, seqNo: envelope.seqNo, body: envelope.body)
    }

    private func remember(_ message: InnerMessage) {
        sent[message.messageId] = message
        sentOrder.append(message.messageId)
        if sentOrder.count > Self.resendCacheSize {
            sent[sentOrder.removeFirst()] = nil
        }
    }
}
