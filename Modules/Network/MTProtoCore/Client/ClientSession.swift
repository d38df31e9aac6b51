public import CryptoUtils
import MTProtoApi
public import TLRuntime

/// A client's MTProto session (MTProto §Sessions, §Service Messages) as a pure state machine: it encrypts
/// requests, keeps them until answered, and turns received packets into events — re-sending on its own what
/// `bad_server_salt` and `bad_msg_notification` ask it to.
///
/// Receive-side checks (MTProto security guidelines): the msg_key and padding (in `EncryptedMessage`), the session
/// id, and for every message, top-level or inside a container: an odd msg_id, inside the time window, never seen
/// before, with a seq_no that fits its neighbours (`MessageIdValidator`) and the parity of what it carries
/// (containers and acknowledgements even, results odd); container children below the container's msg_id; one level
/// of container and of `gzip_packed` (`InboundWalk`). A notification (`bad_msg_notification`, `bad_server_salt`)
/// skips only the time window, since it may be what corrects the clock, and is acted on only when it names a
/// message this session sent in the last `recentCapacity` messages.
///
/// A server that restarted (or forgot the session) starts it afresh and says so with `new_session_created`
/// (core.telegram.org/mtproto/service_messages "New Session Creation Notification"): its seq_nos count from 0
/// again, so a packet whose seq_no does not fit what came before is taken, as the new session's, when it carries that
/// notice (the ids are still checked); requests sent before the new session's first message, which it will never
/// answer, go again (as TDLib's `Session::on_new_session_created`, td/telegram/net/Session.cpp, does).
public struct ClientSession {
    /// Something the caller must act on.
    public enum Event: Equatable, Sendable {
        /// The answer to request `token`: the result object's bytes, or an `rpc_error`.
        case result(token: Int64, Result<AnswerBytes, RpcError>)
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

    /// Why a request could not be sent.
    public enum SendError: Error, Equatable, Sendable {
        /// The request's body is longer than one message may be (`MessageLimits.maximumBodyLength`).
        case bodyTooLarge(Int)
    }

    /// The error a request fails with when the server received it (it acknowledged it) but its answer was lost and
    /// the server can no longer send it again (`msgs_state_info` status 1, or no answer left to re-send): the request
    /// may have run, so it is not sent again under a new msg_id, which would run it twice. Code −1, like the session's
    /// other local errors.
    public static let answerLost = RpcError(code: -1, message: "ANSWER_LOST")

    struct Pending {
        let token: Int64
        let body: [UInt8]
        let contentRelated: Bool
        var attempts = 1
        /// The message as last sealed (msg_id and seq_no), for sending it again unchanged after a reconnect.
        var sent: InnerMessage?
        /// The server's quick ack for it came (`quickAckReceived` reported it).
        var quickAcked = false
        /// The server has it under its msg_id: a quick ack or a `msgs_ack` named it. Past `resendWithSameIdWithin` it
        /// is then asked about (`AnswerRecovery`), never sealed anew.
        var serverHas = false
        /// A `msgs_state_req` or `msg_resend_ans_req` (`AnswerRecovery`): content-related, but answered by
        /// `msgs_state_info` or the answers it asks for, so it is not kept in `pending`.
        var isQuestion = false
    }

    /// A request the server refused this many times (salt, clock) fails instead of being sent again.
    public static let maximumAttempts = 5
    /// Notifications are acted on only for the last this many messages this session sent.
    public static let recentCapacity = 1024
    /// What one incoming message may inflate to and how deep it may nest.
    public static let defaultLimits = TLReader.Limits(maxDepth: 64, maxUnpackedSize: 16 << 20)

    public let authKey: AuthKey
    public let sessionId: Int64
    public private(set) var salts: ServerSaltStore
    private var sealer: MessageSealer
    private var validator = MessageIdValidator(peer: .server)
    private var acks = AckQueue()
    var pending: [Int64: Pending] = [:]
    /// The `msgs_state_req` and `msg_resend_ans_req` sent about acknowledged requests whose answers were lost.
    var recovery = AnswerRecovery()
    /// The msg_ids `seal` gave the requests it was handed, in order (for the questions, which are not `pending`).
    private(set) var lastSealedIds: [Int64] = []
    /// Questions `receive` sends after the packet: `msg_resend_ans_req` for answers a `msgs_state_info` said exist,
    /// and questions the server refused (`bad_server_salt`, `bad_msg_notification`) asked again.
    var questionsToAsk: [(AnswerRecovery.Question, [Int64])] = []
    /// Requests queued by `enqueue` for the next `flush`, in order.
    private var queued: [Pending] = []
    /// The requests each recent container carried: a refusal may name the container instead of its messages.
    private var containers: [Int64: [Int64]] = [:]
    private var recent = RecentIds(capacity: recentCapacity)
    /// The packets sealed with requests, by the quick-ack token the server answers with.
    private var quickAcks = QuickAckWaits()
    private var nextToken: Int64 = 1
    private let limits: TLReader.Limits
    /// The padding of every packet this session seals (one `RAND_bytes` per 4 KiB instead of one per packet).
    private var padding = SecureRandomPool()

    /// A session on `authKey` with a fresh random session id.
    public init(
        authKey: AuthKey, salt: Int64, timeOffset: Double,
        sessionId: Int64 = Int64(bitPattern: SecureRandom.uint64()), limits: TLReader.Limits = defaultLimits
    ) {
        self.authKey = authKey
        self.sessionId = sessionId
        self.salts = ServerSaltStore(initial: salt)
        self.sealer = MessageSealer(ids: MessageIdGenerator(timeOffset: timeOffset))
        self.limits = limits
    }

    /// Seconds the server's clock is ahead of ours.
    public var timeOffset: Double { sealer.ids.timeOffset }

    /// Requests sent or queued and not yet answered.
    public var pendingCount: Int { pending.count + queued.count }

    /// Requests queued by `enqueue` that the next `flush` seals.
    public var queuedCount: Int { queued.count }

    /// Encrypts a request body; returns its token (stable across re-sends) and the packets to send (one, unless
    /// acknowledgements overflow a container).
    public mutating func send(
        _ body: [UInt8], contentRelated: Bool = true, now: Double
    ) throws(SendError) -> (token: Int64, packets: [[UInt8]]) {
        guard body.count <= MessageLimits.maximumBodyLength else { throw .bodyTooLarge(body.count) }
        let token = nextToken
        nextToken += 1
        let packets = seal([Pending(token: token, body: body, contentRelated: contentRelated)], now: now)
        return (token, packets)
    }

    /// Queues a request to leave with the others of this event-loop turn: `flush` seals everything queued (and the
    /// pending acknowledgements) into as few `msg_container`s as MTProto's limits allow — one encryption and one
    /// packet for a batch of calls, as Telegram-iOS MtProtoKit's `MTProto` packs the messages of one transaction
    /// (core.telegram.org/mtproto/service_messages "Containers"). Each request still gets its own msg_id and seq_no
    /// and is answered, acknowledged and re-sent on its own. Returns the request's token.
    public mutating func enqueue(_ body: [UInt8], contentRelated: Bool = true) throws(SendError) -> Int64 {
        let token = reserveToken()
        try enqueue(body, contentRelated: contentRelated, token: token)
        return token
    }

    /// `enqueue` under a token taken before with `reserveToken`.
    public mutating func enqueue(_ body: [UInt8], contentRelated: Bool = true, token: Int64) throws(SendError) {
        guard body.count <= MessageLimits.maximumBodyLength else { throw .bodyTooLarge(body.count) }
        queued.append(Pending(token: token, body: body, contentRelated: contentRelated))
    }

    /// A new token, never given to another request: for a caller that must know a request's token (to cancel it)
    /// before the request is queued. A token reserved and never queued names nothing (`cancel` finds no request).
    public mutating func reserveToken() -> Int64 {
        defer { nextToken += 1 }
        return nextToken
    }

    /// Seals what `enqueue` queued, with pending acknowledgements, into packets (one per container); empty when
    /// nothing waits.
    public mutating func flush(now: Double) -> [[UInt8]] {
        guard !queued.isEmpty else { return [] }
        let requests = queued
        queued = []
        return seal(requests, now: now)
    }

    /// `http_wait#9299359f max_delay:int wait_after:int max_wait:int`, in milliseconds (core.telegram.org/mtproto/
    /// service_messages "Long Poll (http_wait)"): how long the server may hold the HTTP request carrying it.
    public struct HTTPWait: Sendable, Equatable {
        /// The server sends what it has after at most this long.
        public var maxDelay: Int32
        /// After the last message for the session, the server waits this long for more before answering.
        public var waitAfter: Int32
        /// The server answers (empty) after this long if nothing came.
        public var maxWait: Int32

        public init(maxDelay: Int32, waitAfter: Int32, maxWait: Int32) {
            self.maxDelay = maxDelay
            self.waitAfter = waitAfter
            self.maxWait = maxWait
        }
    }

    /// A long poll for MTProto over HTTP: what `enqueue` queued, the pending acknowledgements and an `http_wait`
    /// (not content-related: it gets no answer of its own), sealed into one packet for the POST the server holds.
    public mutating func poll(_ wait: HTTPWait, now: Double) -> [[UInt8]] {
        let body = MTProto.HttpWait.httpWait(
            .init(maxDelay: wait.maxDelay, waitAfter: wait.waitAfter, maxWait: wait.maxWait))
        let requests = queued + [Pending(token: 0, body: body.serialized(), contentRelated: false)]
        queued = []
        return seal(requests, now: now)
    }

    /// Like `send(_:contentRelated:now:)` for a request whose body names its own msg_id (`auth.bindTempAuthKey`'s
    /// encrypted message must carry the msg_id of the call): `makeBody` gets the msg_id the request will be sent with.
    public mutating func send(
        now: Double, contentRelated: Bool = true, body makeBody: (_ messageId: Int64) -> [UInt8]
    ) throws(SendError) -> (token: Int64, packets: [[UInt8]]) {
        // The request is the first message sealed, so it takes the generator's next id at `now`.
        var probe = sealer.ids
        return try send(makeBody(probe.next(.client, now: now)), contentRelated: contentRelated, now: now)
    }

    /// Encrypts messages (with pending acks) into packets, remembering each request under its new msg_id.
    mutating func seal(_ requests: [Pending], now: Double) -> [[UInt8]] {
        var outgoing = requests.map {
            MessageSealer.Outgoing(body: $0.body, contentRelated: $0.contentRelated, kind: .client)
        }
        while acks.count > 0 {
            let ack = MTProto.MsgsAck.msgsAck(.init(msgIds: acks.take()))
            outgoing.append(.init(body: ack.serialized(), contentRelated: false, kind: .client))
        }
        guard !outgoing.isEmpty else { return [] }
        let envelopes = sealer.seal(outgoing, containerKind: .client, now: now)
        var index = 0
        lastSealedIds = []
        // The request tokens each packet carries, for its quick ack.
        var requestTokens: [[Int64]] = []
        requestTokens.reserveCapacity(envelopes.count)
        for envelope in envelopes {
            var carried: [Int64] = []
            var tokens: [Int64] = []
            if envelope.children.count > 1 { carried.reserveCapacity(envelope.children.count) }
            for child in envelope.children {
                if index < requests.count { lastSealedIds.append(child.messageId) }
                if index < requests.count, requests[index].contentRelated, !requests[index].isQuestion {
                    var request = requests[index]
                    request.sent = child
                    request.serverHas = false
                    pending[child.messageId] = request
                    carried.append(child.messageId)
                    if request.token != 0 { tokens.append(request.token) }
                }
                index += 1
                recent.insert(child.messageId)
            }
            requestTokens.append(tokens)
            if envelope.children.count > 1 {
                recent.insert(envelope.message.messageId)
                containers[envelope.message.messageId] = carried
            }
        }
        if containers.count > 1024 { containers = containers.filter { $0.value.contains { pending[$0] != nil } } }
        let salt = salts.current(now: now + timeOffset)
        var packets: [[UInt8]] = []
        packets.reserveCapacity(envelopes.count)
        for (envelope, tokens) in zip(envelopes, requestTokens) {
            let sealed = EncryptedMessage.seal(
                authKey: authKey, direction: .clientToServer, salt: salt, sessionId: sessionId,
                messageId: envelope.message.messageId, seqNo: envelope.message.seqNo, body: envelope.message.body,
                random: { padding.bytes($0) })
            quickAcks.sealed(messageKey: Array(sealed.packet[8..<24]), token: sealed.quickAckToken, requests: tokens)
            packets.append(sealed.packet)
        }
        return packets
    }

    /// Whether `packet`, sealed by this session, carries requests: its transport frame then asks for a quick ack
    /// (core.telegram.org/mtproto/mtproto-transports "Quick ack"), as Telegram-iOS MtProtoKit asks for one on each
    /// packet with content-related messages.
    public func asksForQuickAck(_ packet: [UInt8]) -> Bool {
        quickAcks.asksForQuickAck(packet)
    }

    /// The server's quick ack `token`: the tokens of the requests in that packet still waiting for their answer,
    /// which the server has now received (their answers may still be lost with a socket; they are sent again after a
    /// reconnect all the same). Empty for a token this session does not know.
    /// A request is reported once, however many of its packets are acknowledged (it is sent again after a
    /// reconnect).
    public mutating func quickAckReceived(_ token: UInt32) -> [Int64] {
        let carried = Set(quickAcks.acknowledged(token))
        guard !carried.isEmpty else { return [] }
        var received: [Int64] = []
        for (id, request) in pending where carried.contains(request.token) {
            pending[id]?.serverHas = true
            guard !request.quickAcked else { continue }
            pending[id]?.quickAcked = true
            received.append(request.token)
        }
        return received.sorted()
    }

    /// The msg_id request `token` was last sent with, while it waits for its answer.
    public func messageId(ofToken token: Int64) -> Int64? {
        pending.first { $0.value.token == token }?.key
    }

    /// Forgets request `token` (its caller gave up): no answer will be reported for it, and if it was sent an
    /// `rpc_drop_answer` asks the server not to send one (MTProto §Cancellation of an RPC Query). Returns the packets
    /// to send.
    public mutating func cancel(token: Int64, now: Double) -> [[UInt8]] {
        if let index = queued.firstIndex(where: { $0.token == token }) {
            queued.remove(at: index)
            return []
        }
        guard let id = messageId(ofToken: token) else { return [] }
        pending[id] = nil
        let drop = Pending(
            token: 0, body: MTProto.functions.rpcDropAnswer(reqMsgId: id).serialized(), contentRelated: true)
        return seal([drop], now: now)
    }

    /// `cancel(token:now:)` for several requests at once (a batch whose caller gave up): the ones still queued are
    /// dropped, and the `rpc_drop_answer`s for the ones sent leave together, in one container.
    public mutating func cancel(tokens: [Int64], now: Double) -> [[UInt8]] {
        let withdrawn = Set(tokens)
        queued.removeAll { withdrawn.contains($0.token) }
        var sentIds: [Int64] = []
        for (id, request) in pending where withdrawn.contains(request.token) { sentIds.append(id) }
        guard !sentIds.isEmpty else { return [] }
        sentIds.sort()
        let drops = sentIds.map { id -> Pending in
            pending[id] = nil
            return Pending(
                token: 0, body: MTProto.functions.rpcDropAnswer(reqMsgId: id).serialized(), contentRelated: true)
        }
        return seal(drops, now: now)
    }

    /// A request keeps its msg_id when sent again after a reconnect while the id is at most this old (seconds): the
    /// server accepts ids up to 300 s old and drops one it has seen, so a request it already received is not run
    /// twice (and its answer, if sent, comes again). An older request goes with a new msg_id.
    public static let resendWithSameIdWithin: Double = 240

    /// What to send on a new connection of this session (MTProto §Sessions: a session outlives its connections):
    /// every request still unanswered — unchanged (msg_id, seq_no) while its id is recent enough; past that, sealed
    /// anew if the server never acknowledged it, else asked about with `msgs_state_req` (`AnswerRecovery`: the server
    /// has it and may have run it) — then any pending acknowledgements. Nothing is lost (a request the old socket
    /// swallowed arrives now) and nothing runs twice (a request the server had is a duplicate it refuses, answering
    /// again from its cache, or one whose state and answer are asked for).
    public mutating func resendAfterReconnect(now: Double) -> [[UInt8]] {
        let serverNow = now + timeOffset
        let salt = salts.current(now: serverNow)
        recovery.prune { pending[$0] != nil }
        var packets: [[UInt8]] = []
        var stale: [Pending] = []
        var ask: [Int64] = []
        for (id, request) in pending.sorted(by: { $0.key < $1.key }) {
            if let sent = request.sent, serverNow - MessageIdGenerator.time(of: id) < Self.resendWithSameIdWithin {
                recent.insert(id)
                let sealed = EncryptedMessage.seal(
                    authKey: authKey, direction: .clientToServer, salt: salt, sessionId: sessionId,
                    messageId: sent.messageId, seqNo: sent.seqNo, body: sent.body)
                let tokens = request.token != 0 ? [request.token] : []
                quickAcks.sealed(
                    messageKey: Array(sealed.packet[8..<24]), token: sealed.quickAckToken, requests: tokens)
                packets.append(sealed.packet)
            } else if request.serverHas {
                // The server has it and may have run it: ask what became of it rather than run it again.
                ask.append(id)
            } else {
                pending[id] = nil
                stale.append(request)
            }
        }
        return packets + seal(stale, questions: ask.isEmpty ? [] : [(.state, ask)], now: now)
    }

    /// Packets carrying only pending acknowledgements, if there are any.
    public mutating func acknowledgements(now: Double) -> [[UInt8]] {
        seal([], now: now)
    }

    /// Decrypts and processes a packet; returns the events and the packets to send in reply (re-sent requests).
    public mutating func receive(
        _ packet: [UInt8], now: Double
    ) throws(EnvelopeError) -> (events: [Event], send: [[UInt8]]) {
        let message = try EncryptedMessage.decrypt(packet, authKey: authKey, direction: .serverToClient)
        guard message.sessionId == sessionId else { throw .sessionMismatch }
        let top = InnerMessage(messageId: message.messageId, seqNo: message.seqNo, body: message.body)
        var sequence = SequenceCheck(packet: top)
        if let rejection = check(top, now: now, &sequence) { throw .messageIdRejected(rejection) }
        // §Message Sequence Number: a container is not content-related.
        if top.constructorId == ServiceCodec.containerId, top.isContentRelated { throw .seqNoParity }
        if top.isContentRelated { acks.add(top.messageId) }
        var events: [Event] = []
        var resend: [Pending] = []
        InboundWalk.walk(
            top, limits: limits,
            inPlace: { child, container in
                takeResultInPlace(child, in: container, now: now, &sequence, events: &events)
            },
            accept: { child in
                guard check(child, now: now, &sequence) == nil else { return false }
                if child.isContentRelated { acks.add(child.messageId) }
                return true
            },
            visit: { leaf, reader in handle(leaf, reader: &reader, now: now, events: &events, resend: &resend) },
            refuse: { _, _ in })
        var again: [Pending] = []
        let ask = questionsToAsk
        questionsToAsk = []
        for var request in resend {
            request.attempts += 1
            if request.attempts > Self.maximumAttempts {
                events.append(
                    .result(token: request.token, .failure(RpcError(code: -1, message: "RESEND_LIMIT_REACHED"))))
            } else {
                again.append(request)
            }
        }
        guard !again.isEmpty || !ask.isEmpty else { return (events, []) }
        return (events, seal(again, questions: ask, now: now))
    }

    /// The msg_id and seq_no checks for one message of a packet; notifications skip only the time window.
    private mutating func check(
        _ message: InnerMessage, now: Double, _ sequence: inout SequenceCheck
    ) -> MessageIdValidator.Rejection? {
        let id = message.constructorId
        let notification = id == Self.badMsgNotificationId || id == Self.badServerSaltId
        return accept(message.messageId, seqNo: message.seqNo, now: now, checkTime: !notification, &sequence)
    }

    /// `validator.accept`, except that a seq_no that does not fit is taken as the first of a new sequence when its
    /// packet announces a new session of the server (`new_session_created`: a restarted server counts from 0 again).
    /// The packet is looked at once, at the first such seq_no.
    private mutating func accept(
        _ messageId: Int64, seqNo: Int32, now: Double, checkTime: Bool = true, _ sequence: inout SequenceCheck
    ) -> MessageIdValidator.Rejection? {
        let rejection = validator.accept(messageId, seqNo: seqNo, now: now + timeOffset, checkTime: checkTime)
        guard rejection == .seqNoTooLow || rejection == .seqNoTooHigh, !sequence.looked else { return rejection }
        sequence.looked = true
        guard Self.announcesNewSession(sequence.packet) else { return rejection }
        validator.startNewSequence()
        return validator.accept(messageId, seqNo: seqNo, now: now + timeOffset, checkTime: checkTime)
    }

    /// One packet's look for a new session: the packet, and whether it was looked at already.
    private struct SequenceCheck {
        let packet: InnerMessage
        var looked = false
    }

    /// Whether `packet` is, or is a container holding, `new_session_created`.
    private static func announcesNewSession(_ packet: InnerMessage) -> Bool {
        switch packet.constructorId {
        case newSessionCreatedId:
            return true
        case ServiceCodec.containerId:
            guard let entries = try? ServiceCodec.containerLayout(packet.body) else { return false }
            return entries.contains { entry in
                let (start, end) = (entry.body.lowerBound, entry.body.upperBound)
                return ServiceCodec.constructorId(in: packet.body, at: start, end: end) == newSessionCreatedId
            }
        default:
            return false
        }
    }

    /// A container's child that is a plain `rpc_result` (not `gzip_packed`), taken where it lies in the container's
    /// body: the same checks and acknowledgement as `accept`, the same handling as `handle`, but the answer stays where
    /// it lies (`AnswerBytes`, a range of the container) instead of being copied out with the child's body. Returns
    /// false, leaving the child to the walk, for anything else.
    private mutating func takeResultInPlace(
        _ child: ServiceCodec.ContainerEntry, in container: [UInt8], now: Double, _ sequence: inout SequenceCheck,
        events: inout [Event]
    ) -> Bool {
        // rpc_result's id, req_msg_id, and the result's constructor id: `containerLayout` checked the range.
        let start = child.body.lowerBound
        let end = child.body.upperBound
        guard child.body.count >= 16,
            ServiceCodec.constructorId(in: container, at: start, end: end) == ServiceCodec.rpcResultId,
            ServiceCodec.constructorId(in: container, at: start + 12, end: end) != ServiceCodec.gzipPackedId
        else { return false }
        // `accept`: an rpc_result is not a notification, so the time window applies.
        guard accept(child.messageId, seqNo: child.seqNo, now: now, &sequence) == nil else { return true }
        // A result answers a request: content-related, so its seq_no is odd (else ignored, as in `handle`).
        guard child.seqNo & 1 == 1 else { return true }
        acks.add(child.messageId)
        let requestId = container.withUnsafeBytes {
            Int64(littleEndian: $0.loadUnaligned(fromByteOffset: start + 4, as: Int64.self))
        }
        guard let request = pending.removeValue(forKey: requestId) else { return true }
        answer(request, with: AnswerBytes(container, range: (start + 12)..<child.body.upperBound), events: &events)
        return true
    }

    /// Reports `request`'s answer: an `rpc_error` as a failure, anything else as the result's bytes.
    private func answer(_ request: Pending, with result: AnswerBytes, events: inout [Event]) {
        if result.constructorId == 0x2144_ca19, case .rpcError(let error)? = Self.rpcError(in: result) {
            events.append(
                .result(token: request.token, .failure(RpcError(code: error.errorCode, message: error.errorMessage))))
        } else {
            events.append(.result(token: request.token, .success(result)))
        }
    }

    /// `result` read as a whole `rpc_error`, or nil when it is not one.
    private static func rpcError(in result: AnswerBytes) -> MTProto.RpcError? {
        var reader = result.reader()
        guard let error = try? MTProto.RpcError.parse(&reader), reader.isAtEnd else { return nil }
        return error
    }

    static let badMsgNotificationId: UInt32 = 0xa7ef_f811
    static let badServerSaltId: UInt32 = 0xedab_447b
    static let newSessionCreatedId: UInt32 = 0x9ec2_0908

    private mutating func handle(
        _ message: InnerMessage, reader: inout TLReader, now: Double, events: inout [Event], resend: inout [Pending]
    ) {
        if message.constructorId == ServiceCodec.rpcResultId {
            // A result answers a request: content-related, so its seq_no is odd.
            guard message.isContentRelated, let (requestId, result) = try? Self.parseRpcResult(&reader),
                let request = pending.removeValue(forKey: requestId)
            else { return }
            answer(request, with: AnswerBytes(result), events: &events)
            return
        }
        guard let object = try? MTProto.parseObject(&reader) else {
            events.append(.update(message.body))
            return
        }
        switch object {
        case let pong as MTProto.Pong:
            guard case .pong(let value) = pong, let request = pending.removeValue(forKey: value.msgId) else { return }
            events.append(.result(token: request.token, .success(AnswerBytes(message.body))))
        case let salts as MTProto.FutureSalts:
            guard case .futureSalts(let value) = salts else { return }
            let known = value.salts.map { salt -> ServerSaltStore.Salt in
                switch salt {
                case .futureSalt(let s):
                    return ServerSaltStore.Salt(validSince: s.validSince, validUntil: s.validUntil, salt: s.salt)
                }
            }
            self.salts.add(known, now: now + timeOffset)
            if let request = pending.removeValue(forKey: value.reqMsgId) {
                events.append(.result(token: request.token, .success(AnswerBytes(message.body))))
            }
        case let created as MTProto.NewSession:
            guard case .newSessionCreated(let value) = created else { return }
            self.salts.reset(to: value.serverSalt)
            // What was sent before the new session's first message went to the session the server forgot: it is
            // never answered, so it goes again.
            resend += takeRequests(sentBefore: value.firstMsgId)
            events.append(.newSession(firstMessageId: value.firstMsgId))
        case let notification as MTProto.BadMsgNotification:
            handle(notification, message: message, now: now, resend: &resend)
        case let ack as MTProto.MsgsAck:
            // §Acknowledgment of Receipt: the server has these requests (a reconnect asks about them, never re-runs them).
            guard case .msgsAck(let value) = ack else { return }
            for id in value.msgIds.prefix(MessageLimits.maximumIdsPerRequest) where pending[id] != nil {
                pending[id]?.serverHas = true
            }
        case let info as MTProto.MsgsStateInfo:
            guard case .msgsStateInfo(let value) = info else { return }
            recover(value.reqMsgId, info: value.info, events: &events, resend: &resend)
        case is MTProto.MsgDetailedInfo:
            break
        default:
            events.append(.update(message.body))
        }
    }

    /// §Service Messages about Messages: act only on a notification about a message this session sent recently.
    private mutating func handle(
        _ notification: MTProto.BadMsgNotification, message: InnerMessage, now: Double, resend: inout [Pending]
    ) {
        switch notification {
        case .badServerSalt(let value):
            guard value.errorCode == 48, recent.contains(value.badMsgId) else { return }
            // §Server Salt: adopt the new salt and send the refused message again.
            salts.reset(to: value.newServerSalt)
            resend += takeRequests(named: value.badMsgId)
            askAgain(value.badMsgId, resend: &resend)
        case .badMsgNotification(let value):
            guard recent.contains(value.badMsgId) else { return }
            if value.errorCode == 16 || value.errorCode == 17 {
                // §Time synchronization: the notification's own msg_id carries the server's time.
                sealer.ids.synchronize(serverMessageId: message.messageId, now: now)
            }
            resend += takeRequests(named: value.badMsgId)
            askAgain(value.badMsgId, resend: &resend)
        }
    }

    /// `rpc_result#f35c6d01 req_msg_id:long result:Object`, inflating a packed result within the message's budget.
    private static func parseRpcResult(_ reader: inout TLReader) throws(TLDecodingError) -> (Int64, [UInt8]) {
        _ = try reader.readUInt32()
        let requestId = try reader.readInt64()
        if ServiceCodec.constructorId(in: reader.bytes, at: reader.offset, end: reader.end) == ServiceCodec.gzipPackedId
        {
            _ = try reader.readUInt32()
            let inflated = try reader.unpackGzip()
            guard reader.isAtEnd else { throw .trailingBytes(count: reader.remaining, offset: reader.offset) }
            return (requestId, inflated.bytes)
        }
        return (requestId, Array(reader.bytes[reader.offset..<reader.end]))
    }

    /// The pending requests that left in a packet before the one carrying `firstMessageId` (the first message a new
    /// server session took): a request inside a container is placed by its container's msg_id, so the requests that
    /// travelled with the first message stay (TDLib's `Session::on_new_session_created` compares container ids the
    /// same way).
    private mutating func takeRequests(sentBefore firstMessageId: Int64) -> [Pending] {
        guard !pending.isEmpty else { return [] }
        var packetOf: [Int64: Int64] = [:]
        for (container, children) in containers {
            for child in children { packetOf[child] = container }
        }
        let first = packetOf[firstMessageId] ?? firstMessageId
        let before = pending.keys.filter { (packetOf[$0] ?? $0) < first }.sorted()
        return before.compactMap { pending.removeValue(forKey: $0) }
    }

    /// The pending requests a refused msg_id stood for: the request itself, or every request of a container.
    private mutating func takeRequests(named messageId: Int64) -> [Pending] {
        if let request = pending.removeValue(forKey: messageId) { return [request] }
        guard let children = containers.removeValue(forKey: messageId) else { return [] }
        return children.compactMap { pending.removeValue(forKey: $0) }
    }
}

/// The last `capacity` msg_ids a session sent, to tell a notification about our message from a forged or stale one.
/// A ring without an index: every message sent is inserted (O(1)), while `contains` runs only for the rare
/// `bad_server_salt` / `bad_msg_notification`, so a scan of at most `capacity` ids there is cheaper than keeping a
/// hash set in step on every send.
struct RecentIds: Sendable {
    let capacity: Int
    private var ring: [Int64] = []
    private var next = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    mutating func insert(_ id: Int64) {
        if ring.count < capacity {
            ring.append(id)
        } else {
            ring[next] = id
            next = (next + 1) % capacity
        }
    }

    func contains(_ id: Int64) -> Bool { ring.contains(id) }
}

extension ClientSession: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key's id and the session id only, never the key.
    public var description: String { "ClientSession(key: \(authKey.id), session: \(sessionId))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["authKey": authKey, "sessionId": sessionId]) }
}
