import AccountNetworking
import MTProtoApi
import MTProtoCore
import MTProtoTransport
import TLRuntime

/// Every decision of a `DatacenterConnection`, as a value with no I/O, no clock and no thread of its own (the
/// swift-nio-ssh split): events in — a call made or cancelled, a socket opened or closed, a packet received, a
/// timer fired, the end of an event-loop turn — each with `now`, and the actions they lead to out, for the shell to
/// perform. The MTProto session (msg_ids, seq_nos, salts, containers, re-sends: core.telegram.org/mtproto/
/// description "Session") is the `ClientSession` inside; this machine owns what outlives a socket around it: the
/// calls and their deadlines, the socket's life and the reconnect backoff, acknowledgements owed, the turn's flush,
/// the long polls over HTTP and the watchdog's tick.
///
/// One socket at a time: the first one (`firstSocket`) is being opened when the machine starts; after it closes the
/// machine waits out `ReconnectBackoff` and asks for the next. `Caller` and `BatchCaller` are whoever waits for a
/// call and for a batch; the machine hands them back in `complete` and `completeBatch` and never looks inside.
struct DatacenterConnectionMachine<Caller, BatchCaller> {
    /// The once-a-second tick of the watchdog: overdue calls fail within this long of their deadline.
    static var watchdogInterval: Double { 1 }
    /// `ping_delay_disconnect`'s `disconnect_delay` on keepalives (seconds), as Telegram-iOS sends it.
    static var keepaliveDisconnectDelay: Int32 { 75 }
    /// The socket being opened when the machine starts (by whoever made it).
    static var firstSocket: SocketID { 1 }

    private enum Link {
        /// Socket `id` is being opened; `closedEarly` once it closed before it was reported open.
        case connecting(SocketID, closedEarly: Bool)
        case open(SocketID, since: Double)
        /// No socket; the reconnect timer runs.
        case waiting
        /// No socket and none to come: the session closed.
        case idle
    }

    let options: DatacenterConnection.Options
    /// The MTProto session, which outlives every socket.
    private(set) var session: ClientSession
    private var link = Link.connecting(Self.firstSocket, closedEarly: false)
    private var nextSocket = Self.firstSocket + 1
    /// Closed for good (`close`, or the server's −404): no more calls are taken.
    private(set) var isClosed = false
    /// The server answered −404 (it does not know the key): later calls fail with `authKeyUnknown`.
    private var keyUnknown = false
    /// `close` has run: the timers are cancelled and `events` has ended.
    private var finished = false
    private var calls = ConnectionCallTable<Caller, BatchCaller>()
    /// Whether the session's first call has been queued (it goes inside `invokeWithLayer(initConnection(…))`).
    private var initialized = false
    /// The token of the last call queued with `ordered`, for the next one's `invokeAfterMsg`.
    private var lastOrdered: Int64?
    private var backoff: ReconnectBackoff
    private var watch: ConnectionWatchdog
    private var lastReceived = 0.0
    /// When the socket was first written something that expects an answer since it last received a packet: its
    /// silence is counted from then, not from an idle stretch before the request.
    private var awaitingSince: Double?
    private var armed: Set<Timer> = []
    private var turnEndScheduled = false
    /// The sockets written to since the last flush: one flush per turn for all of them.
    private var unflushed: [SocketID] = []
    /// The reconnect jitter and the keepalives' ping ids.
    private var random: any RandomNumberGenerator
    /// How many sockets this session has used (1 after the first connect).
    private(set) var socketCount = 0
    /// Encrypted packets received, on every socket.
    private(set) var packetsReceived = 0
    /// Long polls sent over HTTP.
    private(set) var httpPolls = 0

    /// A machine for `session`, its first socket (`firstSocket`) being opened.
    init(
        session: ClientSession, options: DatacenterConnection.Options,
        random: any RandomNumberGenerator = SystemRandomNumberGenerator()
    ) {
        self.session = session
        self.options = options
        self.random = random
        backoff = ReconnectBackoff(policy: options.reconnect)
        watch = ConnectionWatchdog(silenceTimeout: options.silenceTimeout, keepaliveInterval: options.keepaliveInterval)
    }

    /// The socket in use, if one is open.
    var openSocket: SocketID? {
        guard case .open(let id, _) = link else { return nil }
        return id
    }

    /// How many calls wait for their outcome.
    var waitingCount: Int { calls.count }

    // MARK: - Sockets

    /// Socket `id` connected: it takes over the session and carries first what the session still owes the server
    /// (MTProto §Sessions: a session outlives its connections; `ClientSession.resendAfterReconnect`).
    mutating func socketOpened(_ id: SocketID, now: Double) -> [Action] {
        guard case .connecting(id, let closedEarly) = link else { return [.closeSocket(id)] }
        var actions: [Action] = []
        if isClosed {
            link = .idle
            return [.closeSocket(id)]
        }
        arm(.watchdog, at: now + Self.watchdogInterval, &actions)
        // It closed before this event came (the two race on the loop): it ended after no time at all.
        if closedEarly { return actions + reconnect(uptime: 0, state: .connecting, now: now) }
        link = .open(id, since: now)
        socketCount += 1
        lastReceived = now
        awaitingSince = nil
        watch.reset()
        actions.append(.setState(.online))
        send(session.resendAfterReconnect(now: now), at: now, &actions)
        // Calls queued while there was no socket leave at this turn's end.
        if session.queuedCount > 0 { scheduleTurnEnd(&actions) }
        if socketCount > 1 { actions.append(.emit(.reconnected)) }
        return actions
    }

    /// Connecting socket `id` failed (no route, refused, timed out).
    mutating func connectFailed(_ id: SocketID, now: Double) -> [Action] {
        guard case .connecting(id, _) = link else { return [] }
        if isClosed {
            link = .idle
            return []
        }
        return reconnect(uptime: 0, state: .waitingForNetwork, now: now)
    }

    /// Socket `id` closed (by the peer, the network, or an action of this machine).
    mutating func socketClosed(_ id: SocketID, now: Double) -> [Action] {
        switch link {
        case .open(id, let since):
            if isClosed {
                link = .idle
                return []
            }
            return reconnect(uptime: now - since, state: .connecting, now: now)
        case .connecting(id, closedEarly: false):
            link = .connecting(id, closedEarly: true)
            return []
        default:
            return []
        }
    }

    /// Closes the socket in use as a network failure would: the session reconnects.
    func dropSocket() -> [Action] {
        guard let id = openSocket else { return [] }
        return [.closeSocket(id)]
    }

    /// Closes the session for good: timers stop, `events` ends, every waiting call fails with `connectionClosed`.
    mutating func close(now: Double) -> [Action] {
        guard !finished else { return [] }
        finished = true
        isClosed = true
        var actions = Timer.allCases.filter { armed.contains($0) }.map { Action.cancelTimer($0) }
        armed = []
        actions.append(.finishEvents)
        append(calls.completeAll(NetworkError.connectionClosed), to: &actions)
        switch link {
        case .open(let id, _): actions.append(.closeSocket(id))
        case .waiting: link = .idle
        case .connecting, .idle: break
        }
        return actions
    }

    /// The backoff's next delay (`ReconnectPolicy`: doubling with jitter, reset by a socket that carries packets),
    /// then a new socket.
    private mutating func reconnect(uptime: Double, state: DatacenterConnection.SocketState, now: Double) -> [Action] {
        let delay = backoff.connectionEnded(uptime: uptime, random: Double.random(in: 0..<1, using: &random))
        link = .waiting
        var actions: [Action] = [.setState(state)]
        arm(.reconnect, at: now + delay, &actions)
        return actions
    }

    // MARK: - Receiving

    /// Whether `packet`, sealed by this machine's session, asks the server for a quick ack (it carries requests).
    func asksForQuickAck(_ packet: [UInt8]) -> Bool {
        session.asksForQuickAck(packet)
    }

    /// The server's quick ack `token` (core.telegram.org/mtproto/mtproto-transports "Quick ack"): the single calls in
    /// that packet still waiting are received by the server.
    mutating func quickAckReceived(_ token: UInt32) -> [Action] {
        session.quickAckReceived(token).compactMap { calls.caller(of: $0) }.map { .acknowledged($0) }
    }

    /// An encrypted packet arrived (on any socket of this session). One that fails a check is dropped
    /// (core.telegram.org/mtproto/security_guidelines); still, a socket carrying packets resets the backoff.
    mutating func packetReceived(_ packet: [UInt8], now: Double) -> [Action] {
        packetsReceived += 1
        lastReceived = now
        awaitingSince = nil
        if backoff.failures > 0 { backoff = ReconnectBackoff(policy: options.reconnect) }
        guard let (events, resend) = try? session.receive(packet, now: now) else { return [] }
        var actions: [Action] = []
        send(resend, at: now, &actions)
        for event in events {
            switch event {
            case .result(let token, let result):
                let outcome = result.mapError { error -> any Error in
                    NetworkError.rpc(code: error.code, message: error.message)
                }
                append(calls.complete(token, outcome), to: &actions)
            case .update(let body):
                actions.append(.emit(.updates(body)))
            case .newSession:
                actions.append(.emit(.newSession))
            }
        }
        // core.telegram.org/mtproto/service_messages_about_messages "Acknowledgment of Receipt": owed
        // acknowledgements ride on the next request, or go alone after `ackDelay`.
        if !isClosed { arm(.acknowledgements, at: now + options.ackDelay, &actions) }
        return actions
    }

    /// A transport error instead of a packet on socket `id` (core.telegram.org/mtproto/mtproto-transports
    /// "Transport errors"): the socket is closed; −404 (the server does not know the key) closes the session too,
    /// failing every waiting call with `authKeyUnknown` so the account makes a new key.
    mutating func transportError(_ code: Int32, on id: SocketID, now: Double) -> [Action] {
        var actions: [Action] = []
        if code == -404 {
            isClosed = true
            keyUnknown = true
            append(calls.completeAll(NetworkError.authKeyUnknown), to: &actions)
        }
        actions.append(.closeSocket(id))
        return actions
    }

    /// MTProto over HTTP: socket `id` has no request at the server (it may not be reported open yet). A long poll
    /// goes at once: an `http_wait` (core.telegram.org/mtproto/service_messages "Long Poll (http_wait)") with what is
    /// queued and the acknowledgements owed.
    mutating func pollNeeded(on id: SocketID, now: Double) -> [Action] {
        guard !isClosed else { return [] }
        httpPolls += 1
        return [.write(session.poll(options.httpWait, now: now), to: id), .flush(id)]
    }

    // MARK: - Time

    /// The end of the event-loop turn asked for with `scheduleTurnEnd`: everything queued in the turn is sealed into
    /// as few containers as MTProto allows (core.telegram.org/mtproto/service_messages "Containers") and every socket
    /// written to is flushed. Without a socket, calls stay queued for the next one.
    mutating func turnEnded(now: Double) -> [Action] {
        turnEndScheduled = false
        var actions: [Action] = []
        if case .open(let id, _) = link {
            let packets = session.flush(now: now)
            if !packets.isEmpty {
                actions.append(.write(packets, to: id))
                if !unflushed.contains(id) { unflushed.append(id) }
                if awaitingSince == nil { awaitingSince = now }
            }
        }
        for id in unflushed { actions.append(.flush(id)) }
        unflushed = []
        return actions
    }

    /// `timer`, armed by this machine, fired.
    mutating func timerFired(_ timer: Timer, now: Double) -> [Action] {
        guard armed.remove(timer) != nil else { return [] }
        switch timer {
        case .reconnect:
            guard case .waiting = link, !isClosed else { return [] }
            let id = nextSocket
            nextSocket += 1
            link = .connecting(id, closedEarly: false)
            return [.openSocket(id)]
        case .acknowledgements:
            // Without a socket they stay owed: the next socket's `resendAfterReconnect` carries them.
            guard openSocket != nil else { return [] }
            var actions: [Action] = []
            send(session.acknowledgements(now: now), at: now, &actions, expectsAnswer: false)
            return actions
        case .watchdog:
            return watchdogTick(now: now)
        }
    }

    /// Calls past their deadline fail with `timedOut`; `ConnectionWatchdog` decides on the socket: one silent past
    /// `silenceTimeout` while an answer is owed is replaced, an idle one gets a `ping_delay_disconnect`
    /// (core.telegram.org/mtproto/service_messages "Deferred Connection Closure + PING") every `keepaliveInterval`.
    private mutating func watchdogTick(now: Double) -> [Action] {
        var actions: [Action] = []
        append(calls.completeOverdue(now: now), to: &actions)
        guard !isClosed else { return actions }
        arm(.watchdog, at: now + Self.watchdogInterval, &actions)
        guard let id = openSocket else { return actions }
        let owed = !calls.isEmpty || session.pendingCount > 0
        let heard = max(lastReceived, awaitingSince ?? lastReceived)
        switch watch.check(now: now, lastReceived: heard, awaitingAnswer: owed) {
        case .none:
            break
        case .replaceSocket:
            actions.append(.closeSocket(id))
        case .ping:
            let ping = MTProto.functions.pingDelayDisconnect(
                pingId: Int64.random(in: 1...Int64.max, using: &random), disconnectDelay: Self.keepaliveDisconnectDelay)
            if let (_, packets) = try? session.send(ping.serialized(), now: now) { send(packets, at: now, &actions) }
        }
        return actions
    }

    // MARK: - Calls

    /// A new token for a call, never given to another: the caller knows it (to cancel) before the call is queued.
    mutating func reserveToken() -> Int64 {
        session.reserveToken()
    }

    /// Queues a call under its reserved `token` for the end of this turn; `body(first)` encodes it (inside
    /// `invokeWithLayer(initConnection(…))` when `first`: the session's first call). It fails with `timedOut` once
    /// `timeout` seconds pass unanswered; with `ordered` it runs on the server only after the previous `ordered` call
    /// (`invokeAfterMsg`, core.telegram.org "Invoking API methods"). A call that cannot be queued (the session is
    /// closed, the body cannot be encoded or does not fit a message) completes at once with its error.
    mutating func enqueue(
        token: Int64, timeout: Double, ordered: Bool = false, caller: Caller, now: Double,
        body: (_ first: Bool) throws(NetworkError) -> [UInt8]
    ) -> [Action] {
        var actions: [Action] = []
        if let error = queue(token: token, ordered: ordered, now: now, &actions, body: body) {
            actions.append(.complete(caller, .failure(error)))
        } else {
            calls.add(token, caller: caller, deadline: now + timeout, timeout: timeout)
        }
        return actions
    }

    /// Queues `count` calls as batch `id` (unique among the batches waiting), call `index` encoded by
    /// `body(index, first)`: they leave in this turn's containers, and `completeBatch` hands every outcome to `caller`
    /// once the last one ends. Each call is still answered, timed out and failed on its own.
    mutating func enqueueBatch(
        id: Int64, count: Int, timeout: Double, caller: BatchCaller, now: Double,
        body: (_ index: Int, _ first: Bool) throws(NetworkError) -> [UInt8]
    ) -> [Action] {
        var actions: [Action] = []
        calls.openBatch(id, count: count, caller: caller)
        for index in 0..<count {
            let token = session.reserveToken()
            let error = queue(token: token, ordered: false, now: now, &actions) { first throws(NetworkError) in
                try body(index, first)
            }
            if let error {
                append(calls.fail(batch: id, index: index, error), to: &actions)
            } else {
                calls.add(token, batch: id, index: index, deadline: now + timeout, timeout: timeout)
            }
        }
        return actions
    }

    /// The caller of call `token` gave up: it ends with `CancellationError`, and if it was sent an `rpc_drop_answer`
    /// asks the server not to answer (core.telegram.org/mtproto/service_messages "Cancellation of an RPC Query").
    mutating func cancel(_ token: Int64, now: Double) -> [Action] {
        guard calls.contains(token) else { return [] }
        var actions: [Action] = []
        send(session.cancel(token: token, now: now), at: now, &actions)
        append(calls.complete(token, .failure(CancellationError())), to: &actions)
        return actions
    }

    /// The caller of batch `id` gave up: its unanswered calls end with `CancellationError` (answered ones keep their
    /// outcomes), and the `rpc_drop_answer`s of those sent leave together.
    mutating func cancelBatch(_ id: Int64, now: Double) -> [Action] {
        let (tokens, completion) = calls.cancel(batch: id)
        guard !tokens.isEmpty else { return [] }
        var actions: [Action] = []
        send(session.cancel(tokens: tokens, now: now), at: now, &actions)
        append(completion, to: &actions)
        return actions
    }

    /// Queues one call in the session; returns why it could not be.
    private mutating func queue(
        token: Int64, ordered: Bool, now: Double, _ actions: inout [Action],
        body: (_ first: Bool) throws(NetworkError) -> [UInt8]
    ) -> NetworkError? {
        guard !isClosed else { return keyUnknown ? .authKeyUnknown : .connectionClosed }
        do {
            let first = !initialized
            var encoded = try body(first)
            if first { initialized = true }
            if ordered, let previous = lastOrdered {
                // invokeAfterMsg names the previous call's msg_id: seal what is queued so that it has one.
                if session.queuedCount > 0 { send(session.flush(now: now), at: now, &actions) }
                if let id = session.messageId(ofToken: previous) { encoded = Self.afterMessage(id, encoded) }
            }
            // Queued, not sealed: the calls of this event-loop turn leave together in one container.
            try session.enqueue(encoded, token: token)
            if ordered { lastOrdered = token }
            scheduleTurnEnd(&actions)
            return nil
        } catch let error as NetworkError {
            return error
        } catch let ClientSession.SendError.bodyTooLarge(length) {
            return .requestTooLarge(length)
        } catch {
            return .requestTooLarge(0)
        }
    }

    /// `invokeAfterMsg#cb9f372d msg_id:long query:!X` around an encoded query.
    private static func afterMessage(_ id: Int64, _ body: [UInt8]) -> [UInt8] {
        var writer = TLWriter()
        writer.writeUInt32(0xcb9f_372d)
        writer.writeInt64(id)
        writer.writeRaw(body)
        return writer.takeBytes()
    }

    // MARK: - Helpers

    /// Writes `packets` to the socket in use, to be flushed at the turn's end; without a socket they are dropped
    /// (the requests among them stay pending in the session, for `resendAfterReconnect`). `expectsAnswer`: they
    /// carry a request, so the socket's silence counts from now if nothing was owed before.
    private mutating func send(
        _ packets: [[UInt8]], at now: Double, _ actions: inout [Action], expectsAnswer: Bool = true
    ) {
        guard !packets.isEmpty, let id = openSocket else { return }
        actions.append(.write(packets, to: id))
        if !unflushed.contains(id) { unflushed.append(id) }
        if expectsAnswer, awaitingSince == nil { awaitingSince = now }
        scheduleTurnEnd(&actions)
    }

    private mutating func scheduleTurnEnd(_ actions: inout [Action]) {
        guard !turnEndScheduled else { return }
        turnEndScheduled = true
        actions.append(.scheduleTurnEnd)
    }

    /// Arms `timer` at `deadline` unless it is armed already.
    private mutating func arm(_ timer: Timer, at deadline: Double, _ actions: inout [Action]) {
        guard armed.insert(timer).inserted else { return }
        actions.append(.scheduleTimer(timer, at: deadline))
    }

    private typealias Completion = ConnectionCallTable<Caller, BatchCaller>.Completion

    private func append(_ completions: [Completion], to actions: inout [Action]) {
        for completion in completions { append(completion, to: &actions) }
    }

    private func append(_ completion: Completion?, to actions: inout [Action]) {
        switch completion {
        case .call(let caller, let outcome)?: actions.append(.complete(caller, outcome))
        case .batch(let caller, let outcomes)?: actions.append(.completeBatch(caller, outcomes))
        case nil: break
        }
    }
}
