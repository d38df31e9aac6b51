import CoreMetrics
import CryptoUtils
public import Foundation
public import Logging
public import MTProtoCore
public import MTProtoTransport
public import NIOCore
public import NIOPosix
import TLRuntime
import TelegramApi

/// The one handler of a server connection that speaks MTProto. It is the I/O shell around the pure state machines:
/// key-exchange steps go to `KeyExchangeWorkers` (off the event loop), encrypted packets are decrypted and handed to
/// the client's `ServerSession`, API calls go to the `RPCHandler` and are answered in the order they arrived.
///
/// Security (MTProto security guidelines): an unknown auth_key_id gets transport error −404 and the connection is
/// closed; a packet that fails the msg_key, length or padding checks closes the connection; a failed key exchange
/// closes it.
///
/// Bounds (`ServerLimits`): a connection silent for `idleTimeout` (or the delay of its last
/// `ping_delay_disconnect`) is closed; with `maximumCallsInFlight` calls unanswered, or while the socket is not
/// writable (the client does not read what it is sent), the handler stops reading the connection and holds the
/// packets already read unprocessed, so answers never pile up without bound (at most `maximumCallsInFlight` answers
/// of at most a message each are ever owed); key-exchange steps that find the workers' queue full get −429.
public final class ServerConnectionHandler: ChannelInboundHandler {
    public typealias InboundIn = TransportFrame
    public typealias OutboundOut = TransportFrame

    private let dcId: Int32
    private let keys: ServerKeyStore
    private let registry: SessionRegistry
    private let handler: any RPCHandler
    private let logger: Logger
    private let clock: @Sendable () -> Double
    private let dhPool: DHPairPool?
    private let workers: KeyExchangeWorkers
    private let limits: ServerLimits
    private var exchange: AuthKeyServerExchange?
    /// A key-exchange step is running on a worker; plain packets that arrive meanwhile wait here (at most two).
    private var exchangeBusy = false
    private var waitingPlain: [[UInt8]] = []
    private var plainIds = MessageIdGenerator()
    /// API calls answer in arrival order: each waits for the one before it.
    private var lastCall: EventLoopFuture<Void>?
    private var callsInFlight = 0
    private var idleTimeout: Double
    private var idleTask: Scheduled<Void>?
    /// When the last whole packet arrived; the idle timer checks it when it fires instead of being rescheduled for
    /// every packet.
    private var lastPacket = NIODeadline.now()
    private var readingPaused = false
    /// Packets read while paused, processed once the connection may go on (at most one socket read's worth: reading
    /// stops while paused).
    private var held: [(packet: [UInt8], quickAck: Bool)] = []
    private var draining = false
    /// A flush is queued on the event loop (`flushSoon`).
    private var flushPending = false
    /// Answers and pushes waiting for that flush, per session, in the order they became ready (at most the calls in
    /// flight plus the pushes of one turn of the loop).
    private var outbox: [(session: SharedSession, messages: [MessageSealer.Outgoing])] = []
    /// Calls still running, by request msg_id, for `invokeAfterMsg` (at most the calls in flight).
    private var running: [Int64: EventLoopFuture<Void>] = [:]
    /// The sessions this connection has carried (a session new to it gets its unacknowledged messages again).
    private var carried: Set<ObjectIdentifier> = []
    private let updates: UpdateGateway?
    private let rpcWorkers: NIOThreadPool?
    /// The sessions this connection receives pushes for.
    private var subscriptions: Set<UpdateGateway.Target> = []
    /// `--trace`: where calls, answers and pushes are written, decoded.
    private let trace: ServerTrace?
    /// With a trace, the calls whose answers have not been sealed yet, by request msg_id, to decode the answers by
    /// (at most the calls in flight and `tracedCallsLimit`: an answer sealed on another connection leaves its entry).
    private var tracedCalls: [Int64: any TLFunction] = [:]
    private static let tracedCallsLimit = 1024
    /// `tg_server_pushes_total`, made once per connection rather than once per push.
    private let pushesCounter = Counter(label: "tg_server_pushes_total")
    /// The channel went inactive (`channelInactive`), and whether it was writable at its last writability change:
    /// what each push and flush asks, kept here so a post's fan-out does not ask each member's channel (a call
    /// through the pipeline and an atomic read on a cold object per member).
    private var isClosed = false
    private var isWritable = true

    public init(
        dcId: Int32, keys: ServerKeyStore, registry: SessionRegistry, handler: any RPCHandler, logger: Logger,
        workers: KeyExchangeWorkers, limits: ServerLimits = ServerLimits(),
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }, dhPool: DHPairPool? = nil,
        updates: UpdateGateway? = nil, rpcWorkers: NIOThreadPool? = nil, trace: ServerTrace? = nil
    ) {
        self.trace = trace
        self.rpcWorkers = rpcWorkers
        self.dhPool = dhPool
        self.updates = updates
        self.dcId = dcId
        self.keys = keys
        self.registry = registry
        self.handler = handler
        self.logger = logger
        self.workers = workers
        self.limits = limits
        self.clock = clock
        self.idleTimeout = limits.idleTimeout
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        scheduleIdleCheck(context: context, in: idleTimeout)
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        idleTask?.cancel()
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .packet(let payload, let quickAck) = unwrapInboundIn(data) else { return }
        lastPacket = .now()
        let packet = Array(payload.readableBytesView)
        if readingPaused || !held.isEmpty {
            held.append((packet, quickAck))
            return
        }
        process(packet, quickAck: quickAck, context: context)
    }

    private func process(_ packet: [UInt8], quickAck: Bool, context: ChannelHandlerContext) {
        if PlainMessage.isPlain(packet) {
            receivePlain(packet, context: context)
        } else {
            receiveEncrypted(packet, quickAck: quickAck, context: context)
        }
    }

    // MARK: - Key exchange

    private func receivePlain(_ packet: [UInt8], context: ChannelHandlerContext) {
        guard !exchangeBusy else {
            guard waitingPlain.count < 2 else { return close(context, "key exchange: too many packets at once") }
            waitingPlain.append(packet)
            return
        }
        let message: PlainMessage
        do {
            message = try PlainMessage(parsing: packet)
        } catch {
            return close(context, "key exchange: \(error)")
        }
        let keys = self.keys
        if exchange == nil || AuthKeyServerExchange.isExchangeStart(message.body) {
            exchange = AuthKeyServerExchange(
                keys: [keys.rsaKey], dhPool: dhPool, isKeyIdTaken: { keys.isKeyIdTaken($0) })
        }
        exchangeBusy = true
        let now = clock()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        workers.run(exchange!, body: message.body, now: now, on: context.eventLoop) { result in
            try keys.add(result, now: now)
        }.whenComplete { outcome in
            let (me, context) = bound.value
            me.exchangeBusy = false
            switch outcome {
            case .failure:
                // The workers' queue is full: too much load (MTProto transports: −429).
                me.logger.notice("closing: key exchange refused, workers busy (-429)")
                me.refuse(context, code: -429)
                return
            case .success((let exchange, .failure(let error))):
                me.exchange = exchange
                return me.close(context, "key exchange failed: \(error)")
            case .success((let exchange, .success(.send(let body)))):
                me.exchange = exchange
                me.sendPlain(body, now: now, context: context)
            case .success((_, .success(.completed(let result, let body)))):
                me.exchange = nil
                me.registry.keyCreated(result.authKey, salt: result.serverSalt)
                me.logger.info("auth key created", metadata: ["dc": "\(me.dcId)", "key": "\(result.authKey.id)"])
                me.sendPlain(body, now: now, context: context)
            }
            if !me.waitingPlain.isEmpty { me.receivePlain(me.waitingPlain.removeFirst(), context: context) }
        }
    }

    private func sendPlain(_ body: [UInt8], now: Double, context: ChannelHandlerContext) {
        let message = PlainMessage(messageId: plainIds.next(.serverResponse, now: now), body: body)
        context.writeAndFlush(wrapOutboundOut(.packet(ByteBuffer(bytes: message.serialized()))), promise: nil)
    }

    // MARK: - Encrypted messages

    private func receiveEncrypted(_ packet: [UInt8], quickAck: Bool, context: ChannelHandlerContext) {
        let now = clock()
        guard let keyId = EncryptedMessage.authKeyId(of: packet), let key = keys.authKey(id: keyId, now: now) else {
            logger.notice("closing: unknown auth key (-404)")
            return refuse(context, code: -404)
        }
        let message: DecryptedMessage
        do {
            message = try EncryptedMessage.decrypt(packet, authKey: key, direction: .clientToServer)
        } catch {
            return close(context, "encrypted message refused: \(error)")
        }
        if quickAck { context.write(wrapOutboundOut(.quickAck(message.quickAckToken)), promise: nil) }
        let session = registry.session(for: key, sessionId: message.sessionId, now: now)
        let reaction = session.with(now: now) { $0.receive(message, now: now) }
        if reaction.accepted { keys.confirm(key.id) }
        if reaction.accepted, carried.insert(ObjectIdentifier(session)).inserted {
            // The session comes on this connection after another (a reconnect): what the client has not
            // acknowledged may have been lost with the old socket, so it goes again (MTProto §Acknowledgment of
            // Receipt; the client drops what it already has by msg_id).
            write(session.with(now: now) { $0.unacknowledgedPackets(now: now) }, context: context)
        }
        if let wait = reaction.httpWait {
            // Only the HTTP transport's adapter acts on it; on TCP the event passes through to the head.
            context.triggerUserOutboundEvent(HTTPHoldRequest(maxWait: Double(wait.maxWait) / 1000), promise: nil)
        }
        if !reaction.replay.isEmpty {
            write(session.with(now: now) { $0.replay(reaction.replay, now: now) }, context: context)
        }
        for reason in reaction.dropped { logger.debug("dropped part of a message", metadata: ["reason": "\(reason)"]) }
        if let delay = reaction.disconnectDelay {
            idleTimeout = delay > 0 ? Double(delay) : limits.idleTimeout
            scheduleIdleCheck(context: context, in: idleTimeout)
        }
        var replies = reaction.replies
        for request in reaction.destroySessions {
            let existed = registry.destroy(authKeyId: key.id, sessionId: request.sessionId)
            replies.append(session.with(now: now) { $0.destroySessionAnswer(request, existed: existed) })
        }
        var calls: [(ServerSession.Call, RPCCall, RPCResponse?)] = []
        // A temporary key bound with auth.bindTempAuthKey acts for its permanent key (its authorization, its pushes).
        let attribution = reaction.calls.isEmpty ? .permanent : keys.attribution(of: key.id)
        let actingKeyId = attribution.effectiveKeyId(key.id)
        // With a trace: each call's seq_no, from the message or the container that carried it.
        let seqNos: [Int64: Int32] =
            trace == nil || reaction.calls.isEmpty
            ? [:]
            : Dictionary(
                ServerTrace.messages(messageId: message.messageId, seqNo: message.seqNo, body: message.body).map {
                    ($0.0, $0.1)
                },
                uniquingKeysWith: { first, _ in first })
        for call in reaction.calls {
            var reader = TLReader(call.query)
            reader.substitutions = .inputPeerForInputUserAndChannel
            do {
                let function = try Api.functions.parse(&reader)
                let rpc = RPCCall(
                    requestMessageId: call.requestMessageId, function: function, layer: call.layer,
                    authKeyId: actingKeyId, sessionId: message.sessionId, dcId: dcId,
                    withoutUpdates: call.withoutUpdates)
                calls.append((call, rpc, answerOwnedByTransport(rpc, key: key, attribution: attribution, now: now)))
                if let trace {
                    trace.call(
                        dcId: dcId, authKeyId: key.id, sessionId: message.sessionId, messageId: call.requestMessageId,
                        seqNo: seqNos[call.requestMessageId], function: function)
                    if tracedCalls.count >= Self.tracedCallsLimit { tracedCalls.removeAll() }
                    tracedCalls[call.requestMessageId] = function
                }
                if !call.withoutUpdates { subscribe(session, actingKeyId: actingKeyId, context: context) }
            } catch {
                let name = ServiceCodec.constructorId(of: call.query).map { String($0, radix: 16) } ?? "empty"
                replies.append(session.with(now: now) { $0.answer(call, error: 400, "INPUT_METHOD_INVALID_\(name)") })
                logger.debug("undecodable call", metadata: ["error": "\(error)"])
            }
        }
        // Acknowledgements of a packet with calls ride with their answers (sealed together at the end of the turn
        // they are ready in, as `sendSoon` does) instead of leaving first in a packet of their own: one packet, one
        // decryption and one wake-up for the client per answer rather than two.
        if !replies.isEmpty || calls.isEmpty {
            let packets = session.with(now: now) { $0.seal(replies, now: now) }
            traceSent(packets, key: key)
            write(packets, context: context)
        }
        flushSoon(context)
        for (call, rpc, local) in calls { answer(call, rpc, local: local, session: session, context: context) }
    }

    /// The answer to calls that concern the key itself rather than the application: `auth.bindTempAuthKey`, and
    /// (401 `AUTH_KEY_PERM_EMPTY`) anything but `help.*` on a temporary key not bound yet. `nil` for the RPC handler.
    private func answerOwnedByTransport(
        _ rpc: RPCCall, key: AuthKey, attribution: ServerKeyStore.KeyAttribution, now: Double
    ) -> RPCResponse? {
        if let bind = rpc.function as? Api.functions.auth.bindTempAuthKey {
            do {
                try keys.bind(
                    .init(
                        temporaryKeyId: key.id, sessionId: rpc.sessionId, messageId: rpc.requestMessageId,
                        permanentKeyId: bind.permAuthKeyId, nonce: bind.nonce, expiresAt: bind.expiresAt,
                        encryptedMessage: bind.encryptedMessage),
                    now: now)
                var writer = TLWriter()
                writer.writeBool(true)
                return .result(writer.takeBytes())
            } catch {
                return .error(code: 400, message: error.message)
            }
        }
        if attribution == .unbound, !rpc.function.functionName.hasPrefix("help.") {
            return .error(code: 401, message: "AUTH_KEY_PERM_EMPTY")
        }
        return nil
    }

    /// With a trace, records what `packets` (sealed for a session on `key`) carry.
    private func traceSent(_ packets: [[UInt8]], key: AuthKey) {
        guard let trace else { return }
        for packet in packets {
            trace.sent(packet, key: key, dcId: dcId) { tracedCalls.removeValue(forKey: $0) }
        }
    }

    private func write(_ packets: [[UInt8]], context: ChannelHandlerContext) {
        for packet in packets { context.write(wrapOutboundOut(.packet(ByteBuffer(bytes: packet))), promise: nil) }
    }

    /// Runs an API call off the event loop and writes its answer once every earlier call has been answered.
    private func answer(
        _ call: ServerSession.Call, _ rpc: RPCCall, local: RPCResponse?, session: SharedSession,
        context: ChannelHandlerContext
    ) {
        let loop = context.eventLoop
        let handler = self.handler
        let clock = self.clock
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        callsInFlight += 1
        updateReading(context: context)
        let started = DispatchTime.now().uptimeNanoseconds
        let method = rpc.function.functionName
        let workers = rpcWorkers
        let run = { () -> EventLoopFuture<RPCResponse> in
            local.map { loop.makeSucceededFuture($0) }
                ?? workers.map { $0.runIfActive(eventLoop: loop) { handler.handle(rpc) } }
                ?? loop.makeFutureWithTask { handler.handle(rpc) }
        }
        // invokeAfterMsg(s): the call runs once the calls it names (still running on this connection) are done.
        let before = call.afterMessages.compactMap { running[$0] }
        let response: EventLoopFuture<RPCResponse> =
            before.isEmpty ? run() : EventLoopFuture.whenAllComplete(before, on: loop).flatMap { _ in run() }
        let done = response.map { _ in () }
        running[call.requestMessageId] = done
        done.whenComplete { _ in
            let (me, _) = bound.value
            if me.running[call.requestMessageId] === done { me.running[call.requestMessageId] = nil }
        }
        let previous = lastCall ?? loop.makeSucceededVoidFuture()
        lastCall = previous.flatMap { response }.map { response in
            let (me, context) = bound.value
            let now = clock()
            let outgoing = session.with(now: now) { session -> MessageSealer.Outgoing in
                switch response {
                case .result(let bytes): session.answer(call, result: bytes)
                case .error(let code, let message): session.answer(call, error: code, message)
                }
            }
            Self.recordCall(method, response, nanoseconds: DispatchTime.now().uptimeNanoseconds - started)
            me.sendSoon(outgoing, session: session, context: context)
            me.callsInFlight -= 1
            me.updateReading(context: context)
        }
    }

    /// Counts a call by method (and its error by name) and records how long it took from its arrival to its answer
    /// being ready (`tg_server_calls_total`, `tg_server_call_errors_total`, `tg_server_call_duration_seconds`).
    static func recordCall(_ method: String, _ response: RPCResponse, nanoseconds: UInt64) {
        Counter(label: "tg_server_calls_total", dimensions: [("method", method)]).increment()
        CoreMetrics.Timer(label: "tg_server_call_duration_seconds", dimensions: [("method", method)])
            .recordNanoseconds(Int64(clamping: nanoseconds))
        if case .error(let code, let message) = response {
            Counter(
                label: "tg_server_call_errors_total",
                dimensions: [("method", method), ("code", String(code)), ("error", errorName(message))]
            ).increment()
        }
    }

    /// An error message with its numbers as `X`, as Telegram's docs name them (`FLOOD_WAIT_X`, `FILE_PART_X_MISSING`),
    /// so a label takes a bounded set of values.
    static func errorName(_ message: String) -> String {
        var name = ""
        var previousWasDigit = false
        for character in message.prefix(64) {
            if character.isASCII, character.isNumber {
                if !previousWasDigit { name.append("X") }
                previousWasDigit = true
            } else {
                name.append(character)
                previousWasDigit = false
            }
        }
        return name
    }

    // MARK: - Pushes

    /// Makes this connection the one that receives `session`'s pushes.
    /// Pushes are addressed by the key the calls act for (`actingKeyId`: the permanent key a temporary one is bound
    /// to), so a session on a bound temporary key gets its authorization's updates.
    private func subscribe(_ session: SharedSession, actingKeyId: Int64, context: ChannelHandlerContext) {
        guard let updates else { return }
        let target = UpdateGateway.Target(authKeyId: actingKeyId, sessionId: session.sessionId)
        guard subscriptions.insert(target).inserted else { return }
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        // The connection's event loop is its lane: one post's pushes to every connection on a loop arrive as one task.
        let lane = UpdateGateway.Lane(id: ObjectIdentifier(loop)) { work in loop.execute(work) }
        updates.subscribe(target, connection: ObjectIdentifier(self), lane: lane) { body in
            let (me, context) = bound.value
            me.deliver(body, to: session, context: context)
        }
    }

    /// Sends a pushed `Updates` on this connection, unless the client is not taking what it is sent.
    private func deliver(_ body: [UInt8], to session: SharedSession, context: ChannelHandlerContext) {
        guard !isClosed, isWritable else {
            logger.debug("push dropped: the client is not reading", metadata: ["session": "\(session.sessionId)"])
            let reason = isClosed ? "closed" : "not_reading"
            Counter(label: "tg_server_pushes_dropped_total", dimensions: [("reason", reason)]).increment()
            return
        }
        pushesCounter.increment()
        sendSoon(session.with(now: clock()) { $0.push(body) }, session: session, context: context)
    }

    /// Queues a message for the end of this turn of the event loop (`flushSoon`), where each session's queued
    /// messages are sealed together — one container, one encryption — instead of one packet each.
    private func sendSoon(_ message: MessageSealer.Outgoing, session: SharedSession, context: ChannelHandlerContext) {
        if let index = outbox.firstIndex(where: { $0.session === session }) {
            outbox[index].messages.append(message)
        } else {
            outbox.append((session, [message]))
        }
        flushSoon(context)
    }

    /// Flushes once the event loop has run what is queued now, so answers and pushes that become ready in the same
    /// turn of the loop leave sealed together and in one vectored write instead of a system call each.
    private func flushSoon(_ context: ChannelHandlerContext) {
        guard !flushPending else { return }
        flushPending = true
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let (me, context) = bound.value
            me.flushPending = false
            let queued = me.outbox
            me.outbox = []
            let now = me.clock()
            for (session, messages) in queued {
                // Sealed even when the connection is gone: sealing keeps them, unacknowledged, for the connection
                // the client comes back on.
                let packets = session.with(now: now) { $0.seal(messages, now: now) }
                if me.trace != nil { me.traceSent(packets, key: session.with(now: now) { $0.authKey }) }
                if !me.isClosed { me.write(packets, context: context) }
            }
            context.flush()
        }
    }

    // MARK: - Bounds

    /// Stops reading while too many calls are unanswered or the client is not taking what is written; reads again
    /// once both are back under their limits.
    private func updateReading(context: ChannelHandlerContext) {
        var shouldPause: Bool { callsInFlight >= limits.maximumCallsInFlight || !context.channel.isWritable }
        // Packets held while paused go first, each one able to pause again (processing one calls back here; the
        // flag keeps that from draining recursively).
        if !draining {
            draining = true
            while !shouldPause, !held.isEmpty, context.channel.isActive {
                let (packet, quickAck) = held.removeFirst()
                process(packet, quickAck: quickAck, context: context)
            }
            draining = false
        }
        let pause = shouldPause
        guard pause != readingPaused else { return }
        readingPaused = pause
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.channel.setOption(ChannelOptions.autoRead, value: !pause).whenSuccess {
            if !pause { bound.value.read() }
        }
    }

    public func channelWritabilityChanged(context: ChannelHandlerContext) {
        isWritable = context.channel.isWritable
        updateReading(context: context)
        context.fireChannelWritabilityChanged()
    }

    /// Closes the connection once `idleTimeout` seconds pass without a whole packet: the timer fires, and either
    /// closes or sleeps again for what is left since the last packet.
    private func scheduleIdleCheck(context: ChannelHandlerContext, in seconds: Double) {
        idleTask?.cancel()
        guard idleTimeout > 0 else { return }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        idleTask = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(max(seconds, 0.001) * 1e9))) {
            let (me, context) = bound.value
            let idle = Double((NIODeadline.now() - me.lastPacket).nanoseconds) / 1e9
            if idle >= me.idleTimeout {
                me.close(context, "idle for \(me.idleTimeout) s")
            } else {
                me.scheduleIdleCheck(context: context, in: me.idleTimeout - idle)
            }
        }
    }

    private func refuse(_ context: ChannelHandlerContext, code: Int32) {
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.transportError(code))).whenComplete { _ in
            bound.value.close(promise: nil)
        }
    }

    private func close(_ context: ChannelHandlerContext, _ reason: String) {
        logger.notice("closing connection", metadata: ["reason": "\(reason)"])
        context.close(promise: nil)
    }

    public func channelInactive(context: ChannelHandlerContext) {
        isClosed = true
        idleTask?.cancel()
        updates?.unsubscribe(subscriptions, connection: ObjectIdentifier(self))
        subscriptions = []
        context.fireChannelInactive()
    }

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        close(context, "transport error: \(error)")
    }
}

@available(*, unavailable)
extension ServerConnectionHandler: Sendable {}
