public import AccountNetworking
import CryptoUtils
public import Foundation
public import MTProtoCore
public import MTProtoTransport
public import NIOCore
public import SwiftSignalKit
import Synchronization
public import TLRuntime
import MTProtoApi
import TelegramApi

/// One data center's MTProto session over sockets that come and go (Telegram-iOS MtProtoKit's `MTProto` over
/// `MTTcpTransport`): the session — its id, msg_id and seq_no state, salts, unanswered requests — belongs to this
/// object, not to a socket. When the socket closes it reconnects after `ReconnectPolicy`'s backoff with jitter and
/// sends every unanswered request again (`ClientSession.resendAfterReconnect`: the same msg_id while the server still
/// accepts it, so nothing is lost and nothing runs twice), while the server sends again what the old socket lost.
/// A socket that stays silent past `silenceTimeout` after a request or a keepalive is closed and replaced.
///
/// `@unchecked Sendable`: the mutable state is confined to `loop` (every entry point hops onto it).
public final class DatacenterConnection: @unchecked Sendable {
    /// How the connection behaves; defaults as in Telegram-iOS (keepalive every 30 s, `ping_delay_disconnect` 75 s).
    public struct Options: Sendable {
        public var reconnect = ReconnectPolicy(initialDelay: 0.1, maximumDelay: 8, multiplier: 2, jitter: 0.3, stableAfter: 10)
        /// A socket with an unanswered request or keepalive that receives nothing for this long is replaced.
        public var silenceTimeout: Double = 15
        /// Seconds between keepalive pings while the socket is idle.
        public var keepaliveInterval: Double = 30
        /// Acknowledgements wait this long for a request to ride on before they go alone.
        public var ackDelay: Double = 0.2
        public var info = MTProtoConnection.ClientInfo()
        /// Over HTTP, the `http_wait` each long poll carries (milliseconds): answer at once when something is ready,
        /// hold at most 25 s — the server caps this with its own limit.
        public var httpWait = ClientSession.HTTPWait(maxDelay: 0, waitAfter: 0, maxWait: 25_000)

        public init() {}
    }

    public let endpoint: MTProtoConnection.Endpoint
    public let key: AuthKeyExchangeResult
    public let options: Options
    private let group: any EventLoopGroup
    private let loop: any EventLoop
    private let clock: @Sendable () -> Double
    private var session: ClientSession
    private var channel: (any Channel)?
    private var connecting = false
    /// The reconnect waiting out its backoff, and the connect under way: `close()` cancels the one and waits for the
    /// other, so no socket is being opened on the event loop group once it returns.
    private var scheduledReconnect: Scheduled<Void>?
    private var connectAttempt: Task<Void, Never>?
    /// Set once, on the loop, when the session closes for good; read anywhere (`isClosed`).
    private let closedFlag = Atomic<Bool>(false)
    private var closed: Bool { closedFlag.load(ordering: .acquiring) }
    /// The server answered −404 (it does not know the key) and the session closed: later calls fail with
    /// `authKeyUnknown`, so the account makes a new key instead of reusing this session.
    private var keyUnknown = false
    /// Calls made from a task on the loop, which took the path without a hop (for tests).
    private var callsQueuedOnLoop = 0
    private var backoff: ReconnectBackoff
    private var connectedAt = 0.0
    private var lastReceived = 0.0
    /// The callers waiting for an answer, each with the time (`clock`) it gives up: the watchdog's once-a-second
    /// tick fails what is past its deadline, so a call costs no timer of its own (timeouts are honoured within 1 s).
    private var waiting: [Int64: Waiter] = [:]
    private struct Waiter {
        var sink: Sink
        let deadline: Double
        let timeout: Double

        /// Hands the call's outcome to whoever waits for it.
        func complete(_ outcome: Result<AnswerBytes, any Error>) {
            switch sink {
            case .single(let promise): promise.completeWith(outcome)
            case .continuation(let continuation): continuation.resume(with: outcome)
            case .batch(let batch, let index): batch.record(index, outcome)
            }
        }
    }
    /// Who waits for a call: its own promise or continuation (`invoke`), or a slot of a batch that resolves once for all its calls
    /// (`invokeBatch`).
    private enum Sink {
        case single(EventLoopPromise<AnswerBytes>)
        /// A caller on the loop (`EventLoopTaskExecutor`) waits here directly: no promise, no callback.
        case continuation(CallContinuation)
        case batch(BatchSink, Int)
    }
    /// A `RequestBatch` and the one promise its caller waits on; confined to the loop like the rest of the state.
    private final class BatchSink: @unchecked Sendable {
        var batch: RequestBatch
        let promise: EventLoopPromise<[Result<AnswerBytes, any Error>]>

        init(count: Int, promise: EventLoopPromise<[Result<AnswerBytes, any Error>]>) {
            batch = RequestBatch(count: count)
            self.promise = promise
        }

        func record(_ index: Int, _ outcome: Result<AnswerBytes, any Error>) {
            if batch.record(index, outcome) { promise.succeed(batch.results()) }
        }
    }
    private var initialized = false
    /// The last request sent with `ordered`, for the next one's `invokeAfterMsg`.
    private var lastOrdered: Int64?
    private var ackScheduled = false
    /// The channels written to since the last flush: one flush per event-loop turn for all of them, so calls made
    /// together leave in one `write` system call instead of one each.
    private var unflushed: [ObjectIdentifier: any Channel] = [:]
    private var turnEndScheduled = false
    private var httpPolls = 0
    private var packetsReceived = 0
    private var watchdog: RepeatedTask?
    private var watch: ConnectionWatchdog
    /// How many sockets this session has used (1 after the first connect).
    public private(set) var socketCount = 0
    /// What the server sends on its own, in arrival order across sockets: `.updates` with a serialized `Updates`
    /// (core.telegram.org "Working with updates"), `.newSession` when the server started this session afresh and
    /// `.reconnected` when the session moved to a new socket — after either, updates may have been missed. The newest 10,000 are kept for a slow reader; finishes on `close()`.
    public let events: AsyncStream<ServerEvent>
    private let eventsContinuation: AsyncStream<ServerEvent>.Continuation

    /// `events` as a Signal (each subscriber gets what arrives after it subscribed).
    public var eventSignal: Signal<ServerEvent, NoError> { eventPipe.signal() }
    private let eventPipe = ValuePipe<ServerEvent>()

    /// Where the socket is, as a title bar shows it (Telegram-iOS `ConnectionStatus`).
    public enum SocketState: Equatable, Sendable {
        /// Connect attempts fail (no route, refused): waiting to try again.
        case waitingForNetwork
        case connecting
        /// Connected and hearing from the server.
        case online
    }

    /// The socket's state over time (repeats are not sent again).
    public var state: Signal<SocketState, NoError> { stateValue.get() }
    private let stateValue = ValuePromise(SocketState.connecting, ignoreRepeated: true)

    /// Something the server sent that no request asked for (`NetworkEvent`).
    public typealias ServerEvent = NetworkEvent

    private init(
        endpoint: MTProtoConnection.Endpoint, key: AuthKeyExchangeResult, options: Options, group: any EventLoopGroup,
        clock: @escaping @Sendable () -> Double
    ) {
        self.endpoint = endpoint
        self.key = key
        self.options = options
        self.group = group
        self.loop = group.next()
        self.clock = clock
        self.session = ClientSession(authKey: key.authKey, salt: key.serverSalt, timeOffset: key.timeOffset)
        self.backoff = ReconnectBackoff(policy: options.reconnect)
        self.watch = ConnectionWatchdog(silenceTimeout: options.silenceTimeout, keepaliveInterval: options.keepaliveInterval)
        (events, eventsContinuation) = AsyncStream.makeStream(of: ServerEvent.self, bufferingPolicy: .bufferingNewest(10_000))
    }

    /// A session on `key` (made by an `MTProtoConnection` or kept from an earlier run) to the DC at `endpoint`,
    /// connected once before returning.
    public static func open(
        to endpoint: MTProtoConnection.Endpoint, key: AuthKeyExchangeResult, group: any EventLoopGroup,
        options: Options = Options(), clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) async throws -> DatacenterConnection {
        let connection = DatacenterConnection(endpoint: endpoint, key: key, options: options, group: group, clock: clock)
        let channel = try await connection.makeSocket()
        try await connection.loop.submit {
            connection.adopt(channel)
            connection.startWatchdog()
        }.get()
        return connection
    }

    /// Calls an API or MTProto function and decodes its result; fails once `timeout` seconds pass without an answer
    /// (checked by the watchdog's once-a-second tick).
    /// Survives socket drops: the request is sent again on the next socket. With `ordered`, the request runs on the
    /// server only after the previous `ordered` request of this session (`invokeAfterMsg`), as Telegram-iOS sends
    /// messages of one chat. Cancelling the calling task gives up the request (`rpc_drop_answer` if it was sent).
    public func invoke<F: TLFunction>(_ function: F, timeout: Double = 60, ordered: Bool = false) async throws -> F.Result {
        let bytes = try await invokeRaw(function, timeout: timeout, ordered: ordered)
        var reader = bytes.reader()
        do {
            return try F.parseResult(&reader)
        } catch {
            throw NetworkError.malformedResult("\(function.functionName): \(error)")
        }
    }

    private func invokeRaw<F: TLFunction>(_ function: F, timeout: Double, ordered: Bool) async throws -> AnswerBytes {
        if loop.inEventLoop {
            // Called on the loop (a task on `EventLoopTaskExecutor`): queued now, without a hop, and answered
            // straight into the task's continuation.
            let token = session.reserveToken()
            return try await withTaskCancellationHandler {
                try await withCallContinuation { continuation in
                    let queue: @Sendable () -> Void = {
                        if let error = self.enqueueCall(
                            function, token: token, timeout: timeout, ordered: ordered, sink: .continuation(continuation)
                        ) {
                            continuation.resume(throwing: error)
                        }
                    }
                    // Nothing suspends between the check above and here, so this is still the loop; the hop is only a
                    // guard that never touches the session off the loop.
                    if self.loop.inEventLoop {
                        self.callsQueuedOnLoop += 1
                        queue()
                    } else {
                        self.loop.execute(queue)
                    }
                }
            } onCancel: {
                self.loop.execute { self.cancelCall(token) }
            }
        }
        let sent = loop.makePromise(of: Int64.self)
        let result = loop.flatSubmit { () -> EventLoopFuture<AnswerBytes> in
            let promise = self.loop.makePromise(of: AnswerBytes.self)
            let token = self.session.reserveToken()
            if let error = self.enqueueCall(function, token: token, timeout: timeout, ordered: ordered, sink: .single(promise)) {
                promise.fail(error)
            }
            // After the call is registered: a cancellation that came first runs now and finds it.
            sent.succeed(token)
            return promise.futureResult
        }
        return try await withTaskCancellationHandler {
            try await result.get()
        } onCancel: {
            sent.futureResult.whenSuccess { self.cancelCall($0) }
        }
    }

    /// Queues `function` (on the loop) under its reserved `token` for the end of this turn, its answer to go to
    /// `sink`; returns the error when it cannot be queued — `sink` is then not used.
    private func enqueueCall<F: TLFunction>(
        _ function: F, token: Int64, timeout: Double, ordered: Bool, sink: Sink
    ) -> NetworkError? {
        let info = options.info
        return enqueue(token: token, timeout: timeout, ordered: ordered, sink: sink) { first throws(NetworkError) in
            do throws(TLEncodingError) {
                return first ? try info.firstRequest(function) : try function.encoded()
            } catch {
                throw .encoding(error)
            }
        }
    }

    /// Queues one call (on the loop) under its reserved `token` for the end of this turn: `body(first)` encodes it
    /// (inside `invokeWithLayer(initConnection(…))` when `first`: the session's first request), its answer goes to
    /// `sink`. Returns the error when it cannot be queued (the session is closed, the call cannot be encoded or does
    /// not fit a message) — `sink` is then not used. Single calls and batches both queue through here.
    private func enqueue(
        token: Int64, timeout: Double, ordered: Bool = false, sink: Sink, body: (_ first: Bool) throws(NetworkError) -> [UInt8]
    ) -> NetworkError? {
        guard !closed else { return keyUnknown ? .authKeyUnknown : .connectionClosed }
        do {
            let first = !initialized
            var encoded = try body(first)
            if first { initialized = true }
            if ordered, let previous = lastOrdered {
                // invokeAfterMsg names the previous request's msg_id: seal what is queued so it has one.
                if session.queuedCount > 0 { write(session.flush(now: clock())) }
                if let id = session.messageId(ofToken: previous) { encoded = try Self.afterMessage(id, encoded) }
            }
            // Queued, not sealed: the calls of this event-loop turn leave together in one container.
            try session.enqueue(encoded, token: token)
            if ordered { lastOrdered = token }
            waiting[token] = Waiter(sink: sink, deadline: clock() + timeout, timeout: timeout)
            scheduleTurnEnd()
            return nil
        } catch let error as NetworkError {
            return error
        } catch let ClientSession.SendError.bodyTooLarge(length) {
            return .requestTooLarge(length)
        } catch {
            return .requestTooLarge(0)
        }
    }

    // `nonisolated(nonsending)`: runs on the caller's executor, so no hop separates `invokeRaw`'s check that it is on
    // the loop from the call being queued.
    #if DEBUG
    /// Debug builds (the tests) check that every call's continuation is resumed exactly once.
    private typealias CallContinuation = CheckedContinuation<AnswerBytes, any Error>
    nonisolated(nonsending) private func withCallContinuation(_ body: (CallContinuation) -> Void) async throws -> AnswerBytes {
        try await withCheckedThrowingContinuation(body)
    }
    #else
    private typealias CallContinuation = UnsafeContinuation<AnswerBytes, any Error>
    nonisolated(nonsending) private func withCallContinuation(_ body: (CallContinuation) -> Void) async throws -> AnswerBytes {
        try await withUnsafeThrowingContinuation(body)
    }
    #endif

    /// Gives up a call its caller cancelled (on the loop): `rpc_drop_answer` if it was sent, `CancellationError` to
    /// its waiter. Nothing when it has already ended.
    private func cancelCall(_ token: Int64) {
        guard let waiter = waiting.removeValue(forKey: token) else { return }
        write(session.cancel(token: token, now: clock()))
        waiter.complete(.failure(CancellationError()))
    }

    /// Calls `functions` together and returns their outcomes in the same order: all of them are queued in one
    /// event-loop turn (one hop from the caller), leave in one `msg_container` (several if MTProto's container limits
    /// require), and the caller is resumed once, when the last one ends — not once per call. Each call is still its
    /// own message (msg_id, seq_no, answer, re-send, timeout), so one `rpc_error` or timeout fails that call alone.
    /// Cancelling the calling task ends the unanswered calls with `CancellationError` (an `rpc_drop_answer` for
    /// each one sent, together in one container); calls already answered keep their results.
    @inlinable
    public func invokeBatch<F: TLFunction>(_ functions: [F], timeout: Double = 60) async -> [Result<F.Result, any Error>] {
        guard !functions.isEmpty else { return [] }
        // Inlinable, so the caller's module specializes the encoding and decoding for `F`; the batch itself is
        // collected by the non-generic `invokeBatchBodies`.
        let info = options.info
        let bodies = await invokeBatchBodies(count: functions.count, timeout: timeout) { index, first throws(NetworkError) in
            do throws(TLEncodingError) {
                if first { return try info.firstRequest(functions[index]) }
                return try functions[index].encoded()
            } catch {
                throw .encoding(error)
            }
        }
        var results: [Result<F.Result, any Error>] = []
        results.reserveCapacity(bodies.count)
        for index in bodies.indices {
            switch bodies[index] {
            case .success(let bytes):
                var reader = bytes.reader()
                do {
                    results.append(.success(try F.parseResult(&reader)))
                } catch {
                    results.append(.failure(NetworkError.malformedResult("\(functions[index].functionName): \(error)")))
                }
            case .failure(let error):
                results.append(.failure(error))
            }
        }
        return results
    }

    /// `invokeBatch` without the types: `encode(index, first)` gives call `index`'s body (inside `invokeWithLayer(
    /// initConnection(…))` when `first`: the session's first request); returns every call's answer bytes or error,
    /// in order.
    @usableFromInline
    func invokeBatchBodies(
        count: Int, timeout: Double, encode: @escaping @Sendable (Int, Bool) throws(NetworkError) -> [UInt8]
    ) async -> [Result<AnswerBytes, any Error>] {
        let sink = BatchSink(count: count, promise: loop.makePromise())
        let submit: @Sendable () -> Void = {
            for index in 0..<count {
                let token = self.session.reserveToken()
                let error = self.enqueue(token: token, timeout: timeout, sink: .batch(sink, index)) { first throws(NetworkError) in
                    try encode(index, first)
                }
                if let error {
                    sink.record(index, .failure(error))
                } else {
                    sink.batch.queued(index, token: token)
                }
            }
        }
        // Called on the loop (a task on `EventLoopTaskExecutor`): queued now, without a hop.
        if loop.inEventLoop { submit() } else { loop.execute(submit) }
        let bodies = await withTaskCancellationHandler {
            (try? await sink.promise.futureResult.get()) ?? []
        } onCancel: {
            // After the submission above (the loop runs its tasks in order): withdraws what is still unanswered.
            self.loop.execute {
                let unanswered = sink.batch.unanswered.filter { self.waiting.removeValue(forKey: $0.token) != nil }
                guard !unanswered.isEmpty else { return }
                self.write(self.session.cancel(tokens: unanswered.map(\.token), now: self.clock()))
                for (index, _) in unanswered { sink.record(index, .failure(CancellationError())) }
            }
        }
        guard bodies.count == count else { return Array(repeating: .failure(NetworkError.connectionClosed), count: count) }
        return bodies
    }

    /// `invokeAfterMsg#cb9f372d msg_id:long query:!X` around an encoded query.
    private static func afterMessage(_ id: Int64, _ body: [UInt8]) throws -> [UInt8] {
        var writer = TLWriter()
        writer.writeUInt32(0xcb9f_372d)
        writer.writeInt64(id)
        writer.writeRaw(body)
        return writer.takeBytes()
    }

    /// Closes the socket for good; unanswered requests fail with `connectionClosed`.
    public func close() async {
        let (channel, attempt) = (try? await loop.submit { () -> ((any Channel)?, Task<Void, Never>?) in
            self.closedFlag.store(true, ordering: .releasing)
            self.watchdog?.cancel()
            self.scheduledReconnect?.cancel()
            self.scheduledReconnect = nil
            self.eventsContinuation.finish()
            let all = self.waiting
            self.waiting = [:]
            for waiter in all.values { waiter.complete(.failure(NetworkError.connectionClosed)) }
            return (self.channel, self.connectAttempt)
        }.get()) ?? (nil, nil)
        await attempt?.value
        try? await channel?.close()
    }

    /// Whether the session is closed for good (`close()`, or a −404 from the server): it takes no more calls.
    public var isClosed: Bool { closedFlag.load(ordering: .acquiring) }

    /// How many calls were made from a task on the session's loop (the path without a hop); for tests.
    func callsQueuedOnLoopCount() async -> Int {
        (try? await loop.submit { self.callsQueuedOnLoop }.get()) ?? 0
    }

    /// Drops the current socket as a network failure would (for tests and for a watchdog): the session reconnects.
    public func dropSocket() async {
        let channel = try? await loop.submit { self.channel }.get()
        try? await channel?.close()
    }

    // MARK: - Sockets

    private func makeSocket() async throws -> any Channel {
        let loop = self.loop
        return try await TransportClient.connect(
            host: endpoint.host, port: endpoint.port, framing: endpoint.framing, obfuscation: endpoint.obfuscation,
            http: endpoint.http, httpSessionPolls: true, group: loop
        ) { [weak self] _ in
            [SessionSocketHandler(
                onFrame: { self?.received($0) }, onClose: { self?.socketClosed() }, onPollNeeded: { self?.poll(on: $0) })]
        }
    }

    /// Takes a new socket: sends what the session still owes the server on it.
    private func adopt(_ channel: any Channel) {
        guard !closed else {
            channel.close(promise: nil)
            return
        }
        self.channel = channel
        socketCount += 1
        connectedAt = clock()
        lastReceived = connectedAt
        watch.reset()
        stateValue.set(.online)
        write(session.resendAfterReconnect(now: clock()))
        if socketCount > 1 {
            eventsContinuation.yield(.reconnected)
            eventPipe.putNext(.reconnected)
        }
    }

    private func socketClosed() {
        channel = nil
        guard !closed else { return }
        stateValue.set(.connecting)
        let uptime = clock() - connectedAt
        let delay = backoff.connectionEnded(uptime: uptime)
        reconnect(after: delay)
    }

    private func reconnect(after delay: Double) {
        guard !connecting, !closed else { return }
        connecting = true
        scheduledReconnect = loop.scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) {
            self.scheduledReconnect = nil
            guard !self.closed else { return }
            self.connectAttempt = Task {
                do {
                    let channel = try await self.makeSocket()
                    try await self.loop.submit {
                        self.connecting = false
                        self.connectAttempt = nil
                        self.adopt(channel)
                    }.get()
                } catch {
                    try? await self.loop.submit {
                        self.connectAttempt = nil
                        self.stateValue.set(.waitingForNetwork)
                        self.connecting = false
                        let delay = self.backoff.connectionEnded(uptime: 0)
                        self.reconnect(after: delay)
                    }.get()
                }
            }
        }
    }

    private func write(_ packets: [[UInt8]]) {
        guard let channel, !packets.isEmpty else { return }
        for packet in packets { channel.write(TransportFrame.packet(ByteBuffer(bytes: packet)), promise: nil) }
        unflushed[ObjectIdentifier(channel)] = channel
        scheduleTurnEnd()
    }

    /// Once per event-loop turn, after the tasks already queued on the loop (64 calls submitted together may all
    /// enqueue first): the session seals what was queued into containers, and every socket written to is flushed,
    /// so the calls of one turn leave in one packet and one `write` system call.
    private func scheduleTurnEnd() {
        guard !turnEndScheduled else { return }
        turnEndScheduled = true
        loop.execute {
            self.turnEndScheduled = false
            // Sealed even without a socket: the requests then wait in the session for `resendAfterReconnect`.
            let packets = self.session.flush(now: self.clock())
            if let channel = self.channel, !packets.isEmpty {
                for packet in packets { channel.write(TransportFrame.packet(ByteBuffer(bytes: packet)), promise: nil) }
                self.unflushed[ObjectIdentifier(channel)] = channel
            }
            let channels = self.unflushed.values
            self.unflushed = [:]
            for channel in channels { channel.flush() }
        }
    }

    /// MTProto over HTTP has no POST at the server: send a long poll (`http_wait`, with what is queued and the
    /// acknowledgements) on `channel`, which may be a socket not adopted yet.
    private func poll(on channel: any Channel) {
        guard !closed else { return }
        httpPolls += 1
        for packet in session.poll(options.httpWait, now: clock()) {
            channel.write(TransportFrame.packet(ByteBuffer(bytes: packet)), promise: nil)
        }
        channel.flush()
    }

    /// Encrypted packets received so far, on every socket (how many packets a batch's answers came in).
    public func receivedPacketCount() async -> Int {
        (try? await loop.submit { self.packetsReceived }.get()) ?? 0
    }

    /// Long polls sent over HTTP so far (each an `http_wait` the server holds).
    public func httpPollCount() async -> Int {
        (try? await loop.submit { self.httpPolls }.get()) ?? 0
    }

    // MARK: - Receiving

    private func received(_ frame: TransportFrame) {
        switch frame {
        case .packet(let payload, _):
            packetsReceived += 1
            lastReceived = clock()
            // A socket that carries answers is a working one: the next drop starts the backoff afresh.
            if backoff.failures > 0 { backoff = ReconnectBackoff(policy: options.reconnect) }
            guard let (events, resend) = try? session.receive(Array(payload.readableBytesView), now: clock()) else { return }
            write(resend)
            for event in events {
                switch event {
                case .result(let token, let result):
                    guard let waiter = waiting.removeValue(forKey: token) else { continue }
                    switch result {
                    case .success(let bytes): waiter.complete(.success(bytes))
                    case .failure(let error): waiter.complete(.failure(NetworkError.rpc(code: error.code, message: error.message)))
                    }
                case .update(let body):
                    eventsContinuation.yield(.updates(body))
                    eventPipe.putNext(.updates(body))
                case .newSession:
                    eventsContinuation.yield(.newSession)
                    eventPipe.putNext(.newSession)
                }
            }
            scheduleAcknowledgements()
        case .quickAck:
            break
        case .transportError(let code):
            if code == -404 {
                closedFlag.store(true, ordering: .releasing)
                keyUnknown = true
                let all = waiting
                waiting = [:]
                for waiter in all.values { waiter.complete(.failure(NetworkError.authKeyUnknown)) }
            }
            channel?.close(promise: nil)
        }
    }

    /// Acknowledgements go alone after `ackDelay` unless a request takes them first.
    private func scheduleAcknowledgements() {
        guard !ackScheduled else { return }
        ackScheduled = true
        loop.scheduleTask(in: .nanoseconds(Int64(options.ackDelay * 1e9))) {
            self.ackScheduled = false
            self.write(self.session.acknowledgements(now: self.clock()))
        }
    }

    /// Every second, `ConnectionWatchdog` decides: a socket that owes us an answer and has been silent past
    /// `silenceTimeout` is replaced; an idle one gets a `ping_delay_disconnect` every `keepaliveInterval`.
    private func startWatchdog() {
        watchdog = loop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
            let now = self.clock()
            self.failOverdueRequests(now: now)
            guard let channel = self.channel, !self.closed else { return }
            let owed = !self.waiting.isEmpty || self.session.pendingCount > 0
            switch self.watch.check(now: now, lastReceived: self.lastReceived, awaitingAnswer: owed) {
            case .none:
                break
            case .replaceSocket:
                channel.close(promise: nil)
            case .ping:
                let ping = MTProto.functions.pingDelayDisconnect(pingId: Int64.random(in: 1...Int64.max), disconnectDelay: 75)
                if let (_, packets) = try? self.session.send(ping.serialized(), now: now) { self.write(packets) }
            }
        }
    }

    /// Fails every request past its deadline (it may still be answered; the answer is then dropped).
    private func failOverdueRequests(now: Double) {
        guard waiting.values.contains(where: { $0.deadline <= now }) else { return }
        for (token, waiter) in waiting where waiter.deadline <= now {
            waiting[token] = nil
            waiter.complete(.failure(NetworkError.timedOut(waiter.timeout)))
        }
    }
}

/// The socket end of a `DatacenterConnection`: hands frames and the close to it (on the channel's loop, which is
/// the connection's).
final class SessionSocketHandler: ChannelInboundHandler {
    typealias InboundIn = TransportFrame

    private let onFrame: (TransportFrame) -> Void
    private let onClose: () -> Void
    private let onPollNeeded: (any Channel) -> Void

    init(
        onFrame: @escaping (TransportFrame) -> Void, onClose: @escaping () -> Void,
        onPollNeeded: @escaping (any Channel) -> Void
    ) {
        self.onFrame = onFrame
        self.onClose = onClose
        self.onPollNeeded = onPollNeeded
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is HTTPPollNeeded { onPollNeeded(context.channel) } else { context.fireUserInboundEventTriggered(event) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        onFrame(unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        onClose()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
