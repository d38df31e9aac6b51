import CryptoUtils
import MTProtoApi
public import TLRuntime

/// One client session on the server (MTProto §Sessions, §Service Messages) as a pure state machine: decrypted
/// messages and the time in, replies, API calls and packets out. It never touches a socket, a lock or a clock; the
/// server module shares it between the connections that carry it and does the I/O.
///
/// Receive-side checks (MTProto security guidelines, §Message Identifier, §Message Sequence Number): msg_ids within
/// −300 s…+30 s (else `bad_msg_notification` 16/17), ≡ 0 mod 4 (18), never seen before (replays are dropped);
/// seq_nos that fit the messages around them (32/33) and the parity of what they carry (34: a container or an
/// acknowledgement must be even; 35: an API call must be odd, while MTProto's own functions such as `ping` are
/// served at either parity, as Telegram serves them); containers whose children have lower msg_ids and no
/// nested container (64); the server salt (`bad_server_salt` 48 with the right one).
///
/// Bounds: `msgs_state_req`, `msg_resend_req` and `msg_resend_ans_req` name at most 8,192 ids (more is refused), repeated ids count once,
/// a resend answers at most `MessageLimits.maximumResendBytes`; the resend cache holds at most
/// `resendCacheEntries` messages and `resendCacheBytes` bytes; outgoing containers respect `MessageLimits`; every
/// message inflates at most `limits.maxUnpackedSize` bytes in all.
public struct ServerSession: Sendable {
    /// An API call (or an MTProto function the caller must answer itself) that reached the session, with its
    /// wrappers peeled off.
    public struct Call: Sendable, Equatable {
        /// The msg_id of the request; the answer's `rpc_result` names it.
        public let requestMessageId: Int64
        /// The innermost query's bytes.
        public let query: [UInt8]
        /// The layer the session declared with `invokeWithLayer`, on this call or before.
        public let layer: Int32?
        /// `invokeWithoutUpdates` was among the wrappers.
        public let withoutUpdates: Bool
        /// The requests an `invokeAfterMsg(s)` says must run first (core.telegram.org "Invoking API methods").
        public var afterMessages: [Int64] = []
    }

    /// A `destroy_session` the caller must carry out (it owns every session), then answer with
    /// `destroySessionAnswer`.
    public struct SessionDestruction: Sendable, Equatable {
        public let requestMessageId: Int64
        public let sessionId: Int64
    }

    /// What receiving one message leads to.
    public struct Reaction: Sendable {
        /// Messages to send back (seal them with `seal`).
        public var replies: [MessageSealer.Outgoing] = []
        /// API calls for the application layer; answer each with `answer(_:result:)` or `answer(_:error:)`.
        public var calls: [Call] = []
        public var destroySessions: [SessionDestruction] = []
        /// `ping_delay_disconnect`: close the connection after this many seconds of silence.
        public var disconnectDelay: Int32?
        /// The message passed the key, msg_id and salt checks: the client holds the key and uses it.
        public var accepted = false
        /// Parts that failed a check and were dropped, with the reason (for the log).
        public var dropped: [String] = []
        /// Messages already sent to send again (`replay(_:now:)`): answers to requests the client sent twice.
        public var replay: [Int64] = []
        /// An `http_wait` (milliseconds): how long an HTTP request may be held for something to answer it with.
        public var httpWait: HTTPWait?
    }

    /// `http_wait max_delay wait_after max_wait`, in milliseconds.
    public struct HTTPWait: Sendable, Equatable {
        public let maxDelay: Int32
        public let waitAfter: Int32
        public let maxWait: Int32

        public init(maxDelay: Int32, waitAfter: Int32, maxWait: Int32) {
            self.maxDelay = maxDelay
            self.waitAfter = waitAfter
            self.maxWait = maxWait
        }
    }

    /// At most this many sent messages are kept for `msg_resend_req`.
    public static let resendCacheEntries = 256
    /// At most this many bytes of sent messages are kept for `msg_resend_req`.
    public static let resendCacheBytes = 4 << 20
    /// What one incoming message may inflate to and how deep it may nest: clients gzip requests of at most a
    /// 512 KB file part.
    public static let defaultLimits = TLReader.Limits(maxDepth: 64, maxUnpackedSize: 2 << 20)

    public let authKey: AuthKey
    public let sessionId: Int64
    /// The layer the client declared with `invokeWithLayer`, once it has.
    public private(set) var layer: Int32?
    let schedule: SaltSchedule
    private let handshakeSalt: Int64?
    private let limits: TLReader.Limits
    private var sealer = MessageSealer()
    var validator = MessageIdValidator(peer: .client)
    private var announced = false
    private var acks = AckQueue()
    var resendCache = ResendCache(entries: resendCacheEntries, bytes: resendCacheBytes)
    /// Content-related messages sent and not yet acknowledged (§Acknowledgment of Receipt), oldest first: what a
    /// client that comes back on a new connection may have missed.
    var unacknowledged = OrderedIds(capacity: resendCacheEntries)
    /// Request msg_id → the msg_id of its `rpc_result`, for a client that sends a request again after losing its
    /// connection (the duplicate is not run twice; the cached answer goes again).
    var answers = OrderedIds(capacity: resendCacheEntries)
    private(set) var answerIds: [Int64: Int64] = [:]
    /// The salt of the current period (`SaltSchedule.period`) once computed: a SHA-256 per period, not per packet.
    private var currentSalt: (period: Int64, salt: Int64)?
    /// Where packets' random padding comes from: `SecureRandom` a few hundred bytes at a time, each byte used once.
    private var padding = PaddingPool()

    /// A session `sessionId` on `authKey`. `handshakeSalt` is the salt the key's exchange produced, valid during
    /// the key's first salt period.
    public init(
        authKey: AuthKey, sessionId: Int64, schedule: SaltSchedule, handshakeSalt: Int64?,
        limits: TLReader.Limits = defaultLimits
    ) {
        self.authKey = authKey
        self.sessionId = sessionId
        self.schedule = schedule
        self.handshakeSalt = handshakeSalt
        self.limits = limits
    }

    /// Processes one decrypted message (`EncryptedMessage.decrypt` has checked its msg_key and padding) at server
    /// time `now`.
    public mutating func receive(_ message: DecryptedMessage, now: Double) -> Reaction {
        var reaction = Reaction()
        let top = InnerMessage(messageId: message.messageId, seqNo: message.seqNo, body: message.body)
        if let rejection = validator.accept(top.messageId, seqNo: top.seqNo, now: now) {
            refuse(top, rejection, into: &reaction)
            return reaction
        }
        // §Server Salt: a wrong salt gets bad_server_salt with the right one; the client re-sends.
        if !schedule.isValid(message.salt, authKeyId: authKey.id, time: now, handshakeSalt: handshakeSalt) {
            let salt = schedule.salt(authKeyId: authKey.id, time: now)
            let answer = MTProto.BadMsgNotification.badServerSalt(
                .init(badMsgId: top.messageId, badMsgSeqno: top.seqNo, errorCode: 48, newServerSalt: salt))
            reaction.replies.append(.init(body: answer.serialized(), contentRelated: false, kind: .serverResponse))
            return reaction
        }
        reaction.accepted = true
        if !announced {
            announced = true
            let created = MTProto.NewSession.newSessionCreated(
                .init(
                    firstMsgId: top.messageId, uniqueId: Int64(bitPattern: SecureRandom.uint64()),
                    serverSalt: schedule.salt(authKeyId: authKey.id, time: now)))
            reaction.replies.append(.init(body: created.serialized(), contentRelated: true, kind: .serverInitiated))
        }
        // §Message Sequence Number: a container is not content-related, so its seq_no is even.
        if top.constructorId == ServiceCodec.containerId, top.isContentRelated {
            reaction.replies.append(badMessage(top, code: 34))
            reaction.dropped.append("container with an odd seq_no")
            return reaction
        }
        if top.isContentRelated { acks.add(top.messageId) }
        InboundWalk.walk(
            top, limits: limits,
            accept: { child in
                if let rejection = validator.accept(child.messageId, seqNo: child.seqNo, now: now) {
                    refuse(child, rejection, into: &reaction)
                    return false
                }
                if child.isContentRelated { acks.add(child.messageId) }
                return true
            },
            visit: { leaf, reader in handle(leaf, reader: &reader, now: now, into: &reaction) },
            refuse: { part, refusal in
                reaction.dropped.append("\(refusal)")
                switch refusal {
                case .childIdNotBelowContainer, .malformedContainer, .nestedContainer:
                    // bad_msg_notification 64: invalid container.
                    reaction.replies.append(badMessage(refusal == .nestedContainer ? part : top, code: 64))
                default:
                    break
                }
            })
        return reaction
    }

    private mutating func handle(
        _ message: InnerMessage, reader: inout TLReader, now: Double, into reaction: inout Reaction
    ) {
        let start = reader
        if let object = try? MTProto.parseObject(&reader) {
            handleService(object, message: message, into: &reaction)
            return
        }
        // MTProto's own functions (ping, ping_delay_disconnect, get_future_salts, destroy_session, rpc_drop_answer)
        // are served whatever the parity of their seq_no, as Telegram serves them: clients disagree on whether they
        // are content-related (Pyrogram's `pyrogram/session/internals/msg_factory.py` sends `ping` as not
        // content-related, with an even seq_no, first thing in every session; Telethon and Telegram-iOS send it odd).
        // Nothing is lost either way: the answer names the request's msg_id, and only an odd one is acknowledged.
        var service = TLReader(message.body, continuing: start)
        if let function = try? MTProto.functions.parse(&service) {
            handleServiceCall(function, message: message, now: now, into: &reaction)
            return
        }
        // Everything else is an API call: content-related, so its seq_no is odd (error 35 otherwise), which keeps
        // the seq_no checks (32/33) meaningful for what the server must answer.
        guard message.isContentRelated else {
            reaction.replies.append(badMessage(message, code: 35))
            reaction.dropped.append("call with an even seq_no")
            return
        }
        let unwrapped: QueryWrappers.Unwrapped
        do {
            unwrapped = try QueryWrappers.unwrap(message.body)
        } catch {
            reaction.replies.append(rpcError(message.messageId, code: 400, text: "INPUT_REQUEST_INVALID"))
            reaction.dropped.append("malformed wrapper: \(error)")
            return
        }
        if let declared = unwrapped.layer { layer = declared }
        reader = TLReader(unwrapped.query, continuing: start)
        if let function = try? MTProto.functions.parse(&reader) {
            handleServiceCall(function, message: message, now: now, into: &reaction)
            return
        }
        reaction.calls.append(
            Call(
                requestMessageId: message.messageId, query: unwrapped.query, layer: layer,
                withoutUpdates: unwrapped.withoutUpdates, afterMessages: unwrapped.afterMessages))
    }

    private mutating func refuse(
        _ message: InnerMessage, _ rejection: MessageIdValidator.Rejection, into reaction: inout Reaction
    ) {
        reaction.dropped.append("msg_id \(message.messageId): \(rejection)")
        if let code = rejection.notificationCode { reaction.replies.append(badMessage(message, code: code)) }
        // A request sent again (same msg_id) after a lost connection: it is not run twice, but its answer, if it
        // was already sent, goes again (the client dropped the connection it was written to).
        if rejection == .duplicate, message.isContentRelated, let answer = answerIds[message.messageId] {
            reaction.replay.append(answer)
        }
    }

    /// Packets that send again, with their own msg_ids and seq_nos, the messages named (from the resend cache; a
    /// client that already has one drops it as a duplicate).
    public mutating func replay(_ messageIds: [Int64], now: Double) -> [[UInt8]] {
        let salt = outgoingSalt(now: now)
        return messageIds.compactMap { resendCache.message($0) }.map { message in
            EncryptedMessage.encrypt(
                authKey: authKey, direction: .serverToClient, salt: salt, sessionId: sessionId,
                messageId: message.messageId, seqNo: message.seqNo, body: message.body, random: { padding.take($0) })
        }
    }

    /// Packets for every content-related message the client has not acknowledged: what to send on a connection
    /// that starts carrying this session after another one (the client may have lost them with the old socket).
    public mutating func unacknowledgedPackets(now: Double) -> [[UInt8]] {
        replay(unacknowledged.ids, now: now)
    }

    /// How many sent messages wait for the client's acknowledgement.
    public var unacknowledgedCount: Int { unacknowledged.ids.count }

    // MARK: - Answers

    /// The answer to `call` with a result object's bytes, as a message to seal.
    public func answer(_ call: Call, result: [UInt8]) -> MessageSealer.Outgoing {
        self.result(call.requestMessageId, result)
    }

    /// The answer to `call` with `rpc_error`.
    public func answer(_ call: Call, error code: Int32, _ message: String) -> MessageSealer.Outgoing {
        rpcError(call.requestMessageId, code: code, text: message)
    }

    /// A message the server sends on its own: `body` is a serialized `Updates` (core.telegram.org "Working with
    /// updates"). Content-related with a server-initiated msg_id, so the client acknowledges it and a resend request
    /// can find it.
    public func push(_ body: [UInt8]) -> MessageSealer.Outgoing {
        .init(body: body, contentRelated: true, kind: .serverInitiated)
    }

    /// The answer to a `destroy_session`: whether the session existed (`destroy_session_ok`) or not
    /// (`destroy_session_none`).
    public func destroySessionAnswer(_ request: SessionDestruction, existed: Bool) -> MessageSealer.Outgoing {
        let answer: MTProto.DestroySessionRes =
            existed
            ? .destroySessionOk(.init(sessionId: request.sessionId))
            : .destroySessionNone(.init(sessionId: request.sessionId))
        return result(request.requestMessageId, answer.serialized())
    }

    func result(_ requestId: Int64, _ body: [UInt8]) -> MessageSealer.Outgoing {
        .init(
            body: ServiceCodec.rpcResult(requestId: requestId, result: body), contentRelated: true,
            kind: .serverResponse)
    }

    func rpcError(_ requestId: Int64, code: Int32, text: String) -> MessageSealer.Outgoing {
        result(requestId, MTProto.RpcError.rpcError(.init(errorCode: code, errorMessage: text)).serialized())
    }

    func badMessage(_ message: InnerMessage, code: Int32) -> MessageSealer.Outgoing {
        let notification = MTProto.BadMsgNotification.badMsgNotification(
            .init(badMsgId: message.messageId, badMsgSeqno: message.seqNo, errorCode: code))
        return .init(body: notification.serialized(), contentRelated: false, kind: .serverResponse)
    }

    // MARK: - Sending

    /// The salt outgoing packets carry at `now`: `schedule`'s for the period, computed once per period.
    mutating func outgoingSalt(now: Double) -> Int64 {
        let period = Int64(now) / SaltSchedule.period
        if let current = currentSalt, current.period == period { return current.salt }
        let salt = schedule.salt(authKeyId: authKey.id, periodNumber: period)
        currentSalt = (period, salt)
        return salt
    }

    /// Encrypts `messages`, with any pending acknowledgements, into packets at server time `now`: one message, or
    /// containers within `MessageLimits`. A message whose body is longer than `MessageLimits.maximumBodyLength` is
    /// replaced by an `rpc_error` 500 `RESPONSE_TOO_LARGE` when it answers a call, and dropped otherwise.
    public mutating func seal(_ messages: [MessageSealer.Outgoing], now: Double) -> [[UInt8]] {
        var batch: [MessageSealer.Outgoing] = []
        batch.reserveCapacity(messages.count + 1)
        for outgoing in messages {
            guard outgoing.body.count > MessageLimits.maximumBodyLength else {
                batch.append(outgoing)
                continue
            }
            guard let (requestId, _) = try? ServiceCodec.parseRpcResult(outgoing.body) else { continue }
            batch.append(rpcError(requestId, code: 500, text: "RESPONSE_TOO_LARGE"))
        }
        while acks.count > 0 {
            let ack = MTProto.MsgsAck.msgsAck(.init(msgIds: acks.take()))
            batch.append(.init(body: ack.serialized(), contentRelated: false, kind: .serverResponse))
        }
        guard !batch.isEmpty else { return [] }
        let salt = outgoingSalt(now: now)
        let envelopes = sealer.seal(batch, containerKind: .serverResponse, now: now)
        var packets: [[UInt8]] = []
        packets.reserveCapacity(envelopes.count)
        for envelope in envelopes {
            for child in envelope.children {
                resendCache.remember(child)
                guard child.isContentRelated else { continue }
                unacknowledged.append(child.messageId)
                if ServiceCodec.constructorId(of: child.body) == ServiceCodec.rpcResultId, child.body.count >= 12 {
                    var reader = TLReader(Array(child.body[4..<12]))
                    let requestId = (try? reader.readInt64()) ?? 0
                    if let forgotten = answers.append(requestId) { answerIds[forgotten] = nil }
                    answerIds[requestId] = child.messageId
                }
            }
            packets.append(
                EncryptedMessage.encrypt(
                    authKey: authKey, direction: .serverToClient, salt: salt, sessionId: sessionId,
                    messageId: envelope.message.messageId, seqNo: envelope.message.seqNo, body: envelope.message.body,
                    random: { padding.take($0) }))
        }
        return packets
    }
}

extension ServerSession: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key's id and the session id only, never the key.
    public var description: String { "ServerSession(key: \(authKey.id), session: \(sessionId))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["authKey": authKey, "sessionId": sessionId]) }
}
