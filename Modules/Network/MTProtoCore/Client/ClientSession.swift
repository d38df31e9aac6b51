public import CryptoUtils
import MTProtoApi
import TLRuntime

/// A client's MTProto session (MTProto §Sessions, §Service Messages) as a pure state machine: it encrypts
/// requests, keeps them until answered, and turns received packets into events — re-sending on its own what
/// `bad_server_salt` and `bad_msg_notification` (16, 17, 48) ask it to.
///
/// Receive-side checks (security guidelines): the msg_key and padding (in `EncryptedMessage`), the session id, and
/// server msg_ids — odd, inside the time window, never twice.
public struct ClientSession {
    /// Something the caller must act on.
    public enum Event: Equatable, Sendable {
        /// The answer to request `token`: the result object's bytes, or an `rpc_error`.
        case result(token: Int64, Result<[UInt8], RpcError>)
        /// A message the server sent on its own (updates).
        case update([UInt8])
        /// The server started a new session; updates may have been missed since `firstMessageId`.
        case newSession(firstMessageId: Int64)
    }

    /// `rpc_error`: a code and a message such as `FLOOD_WAIT_30`.
    public struct RpcError: Error, Equatable, Sendable {
        public let code: Int32
        public let message: String

        public init(code: Int32, message: String) {
            self.code = code
            self.message = message
        }
    }

    private struct Pending {
        let token: Int64
        let body: [UInt8]
        let contentRelated: Bool
        var attempts = 1
    }

    /// A request the server refused this many times (salt, clock) fails instead of being sent again.
    public static let maximumAttempts = 5

    public let authKey: AuthKey
    public let sessionId: Int64
    public private(set) var salts: ServerSaltStore
    private var ids: MessageIdGenerator
    private var sequence = SequenceNumbers()
    private var validator = MessageIdValidator(peer: .server)
    private var acks = AckQueue()
    private var pending: [Int64: Pending] = [:]
    /// The requests each recent container carried: a refusal may name the container instead of its messages.
    private var containers: [Int64: [Int64]] = [:]
    private var nextToken: Int64 = 1

    /// A session on `authKey` with a fresh random session id.
    public init(authKey: AuthKey, salt: Int64, timeOffset: Double, sessionId: Int64 = Int64(bitPattern: SecureRandom.uint64())) {
        self.authKey = authKey
        self.sessionId = sessionId
        self.salts = ServerSaltStore(initial: salt)
        self.ids = MessageIdGenerator(timeOffset: timeOffset)
    }

    /// Seconds the server's clock is ahead of ours.
    public var timeOffset: Double { ids.timeOffset }

    /// Requests sent and not yet answered.
    public var pendingCount: Int { pending.count }

    /// Encrypts a request body; returns its token (stable across re-sends) and the packet to send.
    public mutating func send(_ body: [UInt8], contentRelated: Bool = true, now: Double) -> (token: Int64, packet: [UInt8]) {
        let token = nextToken
        nextToken += 1
        let packet = seal([Pending(token: token, body: body, contentRelated: contentRelated)], now: now)
        return (token, packet)
    }

    /// Encrypts messages (with pending acks) into one packet, remembering each request under its new msg_id.
    private mutating func seal(_ requests: [Pending], now: Double) -> [UInt8] {
        var messages: [InnerMessage] = []
        for request in requests {
            let id = ids.next(.client, now: now)
            messages.append(InnerMessage(messageId: id, seqNo: sequence.next(contentRelated: request.contentRelated), body: request.body))
            if request.contentRelated { pending[id] = request }
        }
        if acks.count > 0 {
            let ack = MTProto.MsgsAck.msgsAck(.init(msgIds: acks.take()))
            messages.append(InnerMessage(messageId: ids.next(.client, now: now), seqNo: sequence.next(contentRelated: false), body: ack.serialized()))
        }
        let envelope: InnerMessage
        if messages.count == 1 {
            envelope = messages[0]
        } else {
            envelope = InnerMessage(
                messageId: ids.next(.client, now: now), seqNo: sequence.next(contentRelated: false),
                body: ServiceCodec.container(messages))
            containers[envelope.messageId] = messages.map(\.messageId).filter { pending[$0] != nil }
            if containers.count > 1024 { containers = containers.filter { $0.value.contains { pending[$0] != nil } } }
        }
        return EncryptedMessage.encrypt(
            authKey: authKey, direction: .clientToServer, salt: salts.current(now: now + ids.timeOffset),
            sessionId: sessionId, messageId: envelope.messageId, seqNo: envelope.seqNo, body: envelope.body)
    }

    /// A packet carrying only pending acknowledgements, if there are any.
    public mutating func acknowledgements(now: Double) -> [UInt8]? {
        guard acks.count > 0 else { return nil }
        return seal([], now: now)
    }

    /// Decrypts and processes a packet; returns the events and the packets to send in reply (re-sent requests).
    public mutating func receive(_ packet: [UInt8], now: Double) throws(EnvelopeError) -> (events: [Event], send: [[UInt8]]) {
        let message = try EncryptedMessage.decrypt(packet, authKey: authKey, direction: .serverToClient)
        guard message.sessionId == sessionId else { throw .sessionMismatch }
        var events: [Event] = []
        var resend: [Pending] = []
        let serverNow = now + ids.timeOffset
        let inner = InnerMessage(messageId: message.messageId, seqNo: message.seqNo, body: message.body)
        // A bad_msg_notification may carry the server's time; check ids only after handling it (below).
        if let id = inner.constructorId, id == 0xa7ef_f811 || id == 0xedab_447b {
            handle(inner, now: now, events: &events, resend: &resend)
        } else {
            if let rejection = validator.accept(message.messageId, now: serverNow) {
                throw .messageIdRejected(rejection)
            }
            handle(inner, now: now, events: &events, resend: &resend)
        }
        var again: [Pending] = []
        for var request in resend {
            request.attempts += 1
            if request.attempts > Self.maximumAttempts {
                events.append(.result(token: request.token, .failure(RpcError(code: -1, message: "RESEND_LIMIT_REACHED"))))
            } else {
                again.append(request)
            }
        }
        let packets = again.isEmpty ? [] : [seal(again, now: now)]
        return (events, packets)
    }

    private mutating func handle(_ message: InnerMessage, now: Double, events: inout [Event], resend: inout [Pending]) {
        if message.isContentRelated { acks.add(message.messageId) }
        guard let id = message.constructorId else { return }
        switch id {
        case ServiceCodec.containerId:
            guard let children = try? ServiceCodec.parseContainer(message.body) else { return }
            for child in children where validator.accept(child.messageId, now: now + ids.timeOffset) == nil {
                handle(child, now: now, events: &events, resend: &resend)
            }
            return
        case ServiceCodec.gzipPackedId:
            if let body = try? ServiceCodec.unpack(message.body) {
                handle(InnerMessage(messageId: message.messageId, seqNo: message.seqNo, body: body), now: now, events: &events, resend: &resend)
            }
            return
        case ServiceCodec.rpcResultId:
            guard let (requestId, result) = try? ServiceCodec.parseRpcResult(message.body),
                let request = pending.removeValue(forKey: requestId)
            else { return }
            if ServiceCodec.constructorId(of: result) == 0x2144_ca19,
                case .rpcError(let error)? = try? MTProto.RpcError(tlBytes: result)
            {
                events.append(.result(token: request.token, .failure(RpcError(code: error.errorCode, message: error.errorMessage))))
            } else {
                events.append(.result(token: request.token, .success(result)))
            }
            return
        default:
            break
        }
        var reader = TLReader(message.body)
        guard let object = try? MTProto.parseObject(&reader) else {
            events.append(.update(message.body))
            return
        }
        switch object {
        case let pong as MTProto.Pong:
            guard case .pong(let value) = pong, let request = pending.removeValue(forKey: value.msgId) else { return }
            events.append(.result(token: request.token, .success(message.body)))
        case let salts as MTProto.FutureSalts:
            guard case .futureSalts(let value) = salts else { return }
            let known = value.salts.map { salt -> ServerSaltStore.Salt in
                switch salt {
                case .futureSalt(let s): return ServerSaltStore.Salt(validSince: s.validSince, validUntil: s.validUntil, salt: s.salt)
                }
            }
            self.salts.add(known, now: now + ids.timeOffset)
            if let request = pending.removeValue(forKey: value.reqMsgId) {
                events.append(.result(token: request.token, .success(message.body)))
            }
        case let created as MTProto.NewSession:
            guard case .newSessionCreated(let value) = created else { return }
            self.salts.reset(to: value.serverSalt)
            events.append(.newSession(firstMessageId: value.firstMsgId))
        case let notification as MTProto.BadMsgNotification:
            switch notification {
            case .badServerSalt(let value):
                // §Server Salt: adopt the new salt and send the refused message again.
                self.salts.reset(to: value.newServerSalt)
                resend += takeRequests(named: value.badMsgId)
            case .badMsgNotification(let value):
                if value.errorCode == 16 || value.errorCode == 17 {
                    // §Time synchronization: the notification's own msg_id carries the server's time.
                    ids.synchronize(serverMessageId: message.messageId, now: now)
                }
                resend += takeRequests(named: value.badMsgId)
            }
        case is MTProto.MsgsAck, is MTProto.MsgDetailedInfo, is MTProto.MsgsStateInfo:
            break
        default:
            events.append(.update(message.body))
        }
    }

    /// The pending requests a refused msg_id stood for: the request itself, or every request of a container.
    private mutating func takeRequests(named messageId: Int64) -> [Pending] {
        if let request = pending.removeValue(forKey: messageId) { return [request] }
        guard let children = containers.removeValue(forKey: messageId) else { return [] }
        return children.compactMap { pending.removeValue(forKey: $0) }
    }
}
