public import AccountNetworking
public import Foundation
public import MTProtoCore
public import MTProtoTransport
public import NIOCore
public import SwiftSignalKit
import Synchronization
public import TLRuntime

/// One data center's MTProto session over sockets that come and go (Telegram-iOS MtProtoKit's `MTProto` over
/// `MTTcpTransport`): the session — its id, msg_id and seq_no state, salts, unanswered requests — belongs to this
/// object, not to a socket. When the socket closes it reconnects after `ReconnectPolicy`'s backoff with jitter and
/// sends every unanswered request again (`ClientSession.resendAfterReconnect`: the same msg_id while the server still
/// accepts it, so nothing is lost and nothing runs twice), while the server sends again what the old socket lost.
/// A socket that stays silent past `silenceTimeout` after a request or a keepalive is closed and replaced.
///
/// This class is the shell: every decision is `DatacenterConnectionMachine`'s, which it feeds with what happens —
/// calls, sockets opened and closed, frames, timers firing, the end of an event-loop turn, each with `clock()` — and
/// whose actions it performs: it opens and closes sockets, writes and flushes, arms timers at the deadlines the
/// machine names, and completes the callers' promises and continuations.
///
/// `@unchecked Sendable`: the mutable state (the machine, the sockets, the timers) is confined to `loop` (every
/// entry point hops onto it); what is read anywhere (`isClosed`, `socketCount`) is atomic.
public final class DatacenterConnection: @unchecked Sendable {
    /// How the connection behaves; defaults as in Telegram-iOS (keepalive every 30 s, `ping_delay_disconnect` 75 s).
    public struct Options: Sendable {
        public var reconnect = ReconnectPolicy(
            initialDelay: 0.1, maximumDelay: 8, multiplier: 2, jitter: 0.3, stableAfter: 10)
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
        /// Seconds a socket's TCP connect (and a SOCKS5 proxy's handshake) may take.
        public var connectTimeout: Double = 10

        public init() {}
    }

    public let endpoint: MTProtoConnection.Endpoint
    public let key: AuthKeyExchangeResult
    public let options: Options
    private let loop: any EventLoop
    private let clock: @Sendable () -> Double
    /// Who waits for a call: its own promise (`invoke` from off the loop), or the continuation of a caller on the loop
    /// (`EventLoopTaskExecutor`), which waits directly: no promise, no callback.
    /// Either may also be told when the server has received the call (`onQuickAck`).
    private enum Caller {
        case promise(EventLoopPromise<AnswerBytes>, onQuickAck: (@Sendable () -> Void)?)
        case continuation(CallContinuation, onQuickAck: (@Sendable () -> Void)?)

        var onQuickAck: (@Sendable () -> Void)? {
            switch self {
            case .promise(_, let handler), .continuation(_, let handler): handler
            }
        }
    }
    /// A batch's caller waits on one promise for every outcome (`invokeBatch`).
    private typealias BatchCaller = EventLoopPromise<[Result<AnswerBytes, any Error>]>
    private typealias Machine = DatacenterConnectionMachine<Caller, BatchCaller>
    /// Every decision; confined to `loop`.
    private var machine: Machine
    /// The machine's sockets by id: the one in use and the one being opened (from the moment its pipeline is built,
    /// so an HTTP long poll can go before the connect returns).
    private var sockets: [Machine.SocketID: any Channel] = [:]
    private var timers: [Machine.Timer: Scheduled<Void>] = [:]
    /// The connect under way: `close()` waits for it, so no socket is being opened on the event loop group once it
    /// returns.
    private var connectAttempt: Task<Void, Never>?
    /// Set once, on the loop, when the session closes for good; read anywhere (`isClosed`).
    private let closedFlag = Atomic<Bool>(false)
    private let socketTotal = Atomic<Int>(0)
    /// Batch ids, unique for this connection (taken off the loop, so a cancellation can name its batch).
    private let batchIds = Atomic<Int64>(1)
    /// Calls made from a task on the loop, which took the path without a hop (for tests).
    private var callsQueuedOnLoop = 0
    /// How many sockets this session has used (1 after the first connect).
    public var socketCount: Int { socketTotal.load(ordering: .relaxed) }
    /// What the server sends on its own, in arrival order across sockets: `.updates` with a serialized `Updates`
    /// (core.telegram.org "Working with updates"), `.newSession` when the server started this session afresh and
    /// `.reconnected` when the session moved to a new socket — after either, updates may have been missed. The
    /// newest 10,000 are kept for a slow reader; finishes on `close()`.
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
        self.loop = group.next()
        self.clock = clock
        let session = ClientSession(authKey: key.authKey, salt: key.serverSalt, timeOffset: key.timeOffset)
        self.machine = Machine(session: session, options: options)
        (events, eventsContinuation) = AsyncStream.makeStream(
            of: ServerEvent.self, bufferingPolicy: .bufferingNewest(10_000))
    }

    /// A session on `key` (made by an `MTProtoConnection` or kept from an earlier run) to the DC at `endpoint`,
    /// connected once before returning.
    public static func open(
        to endpoint: MTProtoConnection.Endpoint, key: AuthKeyExchangeResult, group: any EventLoopGroup,
        options: Options = Options(), clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) async throws -> DatacenterConnection {
        let connection = DatacenterConnection(
            endpoint: endpoint, key: key, options: options, group: group, clock: clock)
        let first = Machine.firstSocket
        _ = try await connection.makeSocket(first)
        try await connection.loop.submit { connection.socketOpened(first) }.get()
        return connection
    }

    /// Calls an API or MTProto function and decodes its result; fails once `timeout` seconds pass without an answer
    /// (checked by the watchdog's once-a-second tick).
    /// Survives socket drops: the request is sent again on the next socket. With `ordered`, the request runs on the
    /// server only after the previous `ordered` request of this session (`invokeAfterMsg`), as Telegram-iOS sends
    /// messages of one chat. Cancelling the calling task gives up the request (`rpc_drop_answer` if it was sent).
    /// `onQuickAck` runs (on the connection's loop, at most once) when the server's quick ack says it has received
    /// the request, before its answer (core.telegram.org/mtproto/mtproto-transports "Quick ack"; not over HTTP).
    public func invoke<F: TLFunction>(
        _ function: F, timeout: Double = 60, ordered: Bool = false, onQuickAck: (@Sendable () -> Void)? = nil
    ) async throws -> F.Result {
        let bytes = try await invokeRaw(function, timeout: timeout, ordered: ordered, onQuickAck: onQuickAck)
        var reader = bytes.reader()
        do {
            return try F.parseResult(&reader)
        } catch {
            throw NetworkError.malformedResult("\(function.functionName): \(error)")
        }
    }

    private func invokeRaw<F: TLFunction>(
        _ function: F, timeout: Double, ordered: Bool, onQuickAck: (@Sendable () -> Void)? = nil
    ) async throws -> AnswerBytes {
        if loop.inEventLoop {
            // Called on the loop (a task on `EventLoopTaskExecutor`): queued now, without a hop, and answered
            // straight into the task's continuation.
            let token = machine.reserveToken()
            return try await withTaskCancellationHandler {
                try await withCallContinuation { continuation in
                    let queue: @Sendable () -> Void = {
                        self.enqueueCall(
                            function, token: token, timeout: timeout, ordered: ordered,
                            caller: .continuation(continuation, onQuickAck: onQuickAck))
                    }
                    // Nothing suspends between the check above and here, so this is still the loop; the hop is only a
                    // guard that never touches the machine off the loop.
                    if self.loop.inEventLoop {
                        self.callsQueuedOnLoop += 1
                        queue()
                    } else {
                        self.loop.execute(queue)
                    }
                }
            } onCancel: {
                self.loop.execute { self.perform(self.machine.cancel(token, now: self.clock())) }
            }
        }
        let sent = loop.makePromise(of: Int64.self)
        let result = loop.flatSubmit { () -> EventLoopFuture<AnswerBytes> in
            let promise = self.loop.makePromise(of: AnswerBytes.self)
            let token = self.machine.reserveToken()
            self.enqueueCall(
                function, token: token, timeout: timeout, ordered: ordered,
                caller: .promise(promise, onQuickAck: onQuickAck))
            // After the call is registered: a cancellation that came first runs now and finds it.
            sent.succeed(token)
            return promise.futureResult
        }
        return try await withTaskCancellationHandler {
            try await result.get()
        } onCancel: {
            sent.futureResult.whenSuccess { self.perform(self.machine.cancel($0, now: self.clock())) }
        }
    }

    /// Queues `function` (on the loop) under its reserved `token` for the end of this turn, its answer to go to
    /// `caller` (at once, with the error, when it cannot be queued).
    private func enqueueCall<F: TLFunction>(
        _ function: F, token: Int64, timeout: Double, ordered: Bool, caller: Caller
    ) {
        let info = options.info
        let actions = machine.enqueue(
            token: token, timeout: timeout, ordered: ordered, caller: caller, now: clock()
        ) { first throws(NetworkError) in
            do throws(TLEncodingError) {
                return first ? try info.firstRequest(function) : try function.encoded()
            } catch {
                throw .encoding(error)
            }
        }
        perform(actions)
    }

    // `nonisolated(nonsending)`: runs on the caller's executor, so no hop separates `invokeRaw`'s check that it is on
    // the loop from the call being queued.
    #if DEBUG
        /// Debug builds (the tests) check that every call's continuation is resumed exactly once.
        private typealias CallContinuation = CheckedContinuation<AnswerBytes, any Error>
        nonisolated(nonsending) private func withCallContinuation(
            _ body: (CallContinuation) -> Void
        ) async throws -> AnswerBytes {
            try await withCheckedThrowingContinuation(body)
        }
    #else
        private typealias CallContinuation = UnsafeContinuation<AnswerBytes, any Error>
        nonisolated(nonsending) private func withCallContinuation(
            _ body: (CallContinuation) -> Void
        ) async throws -> AnswerBytes {
            try await withUnsafeThrowingContinuation(body)
        }
    #endif

    /// Calls `functions` together and returns their outcomes in the same order: all of them are queued in one
    /// event-loop turn (one hop from the caller), leave in one `msg_container` (several if MTProto's container limits
    /// require), and the caller is resumed once, when the last one ends — not once per call. Each call is still its
    /// own message (msg_id, seq_no, answer, re-send, timeout), so one `rpc_error` or timeout fails that call alone.
    /// Cancelling the calling task ends the unanswered calls with `CancellationError` (an `rpc_drop_answer` for
    /// each one sent, together in one container); calls already answered keep their results.
    @inlinable
    public func invokeBatch<F: TLFunction>(
        _ functions: [F], timeout: Double = 60
    ) async -> [Result<F.Result, any Error>] {
        guard !functions.isEmpty else { return [] }
        // Inlinable, so the caller's module specializes the encoding and decoding for `F`; the batch itself is
        // collected by the non-generic `invokeBatchBodies`.
        let info = options.info
        let bodies = await invokeBatchBodies(count: functions.count, timeout: timeout) {
            index, first throws(NetworkError) in
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
        let promise = loop.makePromise(of: [Result<AnswerBytes, any Error>].self)
        let id = batchIds.wrappingAdd(1, ordering: .relaxed).oldValue
        let submit: @Sendable () -> Void = {
            let actions = self.machine.enqueueBatch(
                id: id, count: count, timeout: timeout, caller: promise, now: self.clock()
            ) { index, first throws(NetworkError) in
                try encode(index, first)
            }
            self.perform(actions)
        }
        // Called on the loop (a task on `EventLoopTaskExecutor`): queued now, without a hop.
        if loop.inEventLoop { submit() } else { loop.execute(submit) }
        let bodies = await withTaskCancellationHandler {
            (try? await promise.futureResult.get()) ?? []
        } onCancel: {
            // After the submission above (the loop runs its tasks in order): withdraws what is still unanswered.
            self.loop.execute { self.perform(self.machine.cancelBatch(id, now: self.clock())) }
        }
        guard bodies.count == count else {
            return Array(repeating: .failure(NetworkError.connectionClosed), count: count)
        }
        return bodies
    }

    /// Closes the socket for good; unanswered requests fail with `connectionClosed`.
    public func close() async {
        let (channel, attempt) =
            (try? await loop.submit { () -> ((any Channel)?, Task<Void, Never>?) in
                let open = self.machine.openSocket.flatMap { self.sockets[$0] }
                self.perform(self.machine.close(now: self.clock()))
                return (open, self.connectAttempt)
            }.get()) ?? (nil, nil)
        await attempt?.value
        try? await channel?.closeFuture.get()
    }

    /// Whether the session is closed for good (`close()`, or a −404 from the server): it takes no more calls.
    public var isClosed: Bool { closedFlag.load(ordering: .acquiring) }

    /// How many calls were made from a task on the session's loop (the path without a hop); for tests.
    package func callsQueuedOnLoopCount() async -> Int {
        (try? await loop.submit { self.callsQueuedOnLoop }.get()) ?? 0
    }

    /// Drops the current socket as a network failure would (for tests and for a watchdog): the session reconnects.
    public func dropSocket() async {
        let channel = try? await loop.submit { () -> (any Channel)? in
            let open = self.machine.openSocket.flatMap { self.sockets[$0] }
            self.perform(self.machine.dropSocket())
            return open
        }.get()
        try? await channel?.closeFuture.get()
    }

    /// Encrypted packets received so far, on every socket (how many packets a batch's answers came in).
    public func receivedPacketCount() async -> Int {
        (try? await loop.submit { self.machine.packetsReceived }.get()) ?? 0
    }

    /// Long polls sent over HTTP so far (each an `http_wait` the server holds).
    public func httpPollCount() async -> Int {
        (try? await loop.submit { self.machine.httpPolls }.get()) ?? 0
    }

    // MARK: - Events in (on the loop)

    /// Connects socket `id`; its pipeline reports to the machine under that id from the moment it is built.
    private func makeSocket(_ id: Machine.SocketID) async throws -> any Channel {
        let loop = self.loop
        let route = endpoint.route
        return try await TransportClient.connect(
            host: route.host, port: route.port, framing: route.framing, obfuscation: route.obfuscation,
            http: route.http, httpSessionPolls: true, proxy: route.socks5, group: loop,
            connectTimeout: .nanoseconds(Int64(max(0.001, options.connectTimeout) * 1e9))
        ) { [weak self] channel in
            // The channel's initializer runs on its loop, which is the connection's.
            loop.preconditionInEventLoop()
            self?.sockets[id] = channel
            return [
                SessionSocketHandler(
                    onFrame: { self?.received($0, on: id) }, onClose: { self?.socketClosed(id) },
                    onPollNeeded: { self?.pollNeeded(on: id) })
            ]
        }
    }

    private func socketOpened(_ id: Machine.SocketID) {
        let actions = machine.socketOpened(id, now: clock())
        socketTotal.store(machine.socketCount, ordering: .relaxed)
        perform(actions)
    }

    private func socketClosed(_ id: Machine.SocketID) {
        sockets[id] = nil
        perform(machine.socketClosed(id, now: clock()))
    }

    private func received(_ frame: TransportFrame, on id: Machine.SocketID) {
        switch frame {
        case .packet(let payload, _):
            perform(machine.packetReceived(Array(payload.readableBytesView), now: clock()))
        case .quickAck(let token):
            perform(machine.quickAckReceived(token))
        case .transportError(let code):
            perform(machine.transportError(code, on: id, now: clock()))
        }
    }

    private func pollNeeded(on id: Machine.SocketID) {
        perform(machine.pollNeeded(on: id, now: clock()))
    }

    // MARK: - Actions out (on the loop)

    private func perform(_ actions: [Machine.Action]) {
        // Before any caller hears of it: a caller told `connectionClosed` sees the session closed.
        if machine.isClosed, !closedFlag.load(ordering: .relaxed) { closedFlag.store(true, ordering: .releasing) }
        for action in actions {
            switch action {
            case .openSocket(let id):
                connect(id)
            case .write(let packets, let id):
                guard let channel = sockets[id] else { continue }
                for packet in packets {
                    let frame = TransportFrame.packet(
                        ByteBuffer(bytes: packet), quickAckRequested: machine.asksForQuickAck(packet))
                    channel.write(frame, promise: nil)
                }
            case .flush(let id):
                sockets[id]?.flush()
            case .closeSocket(let id):
                sockets[id]?.close(promise: nil)
            case .scheduleTimer(let timer, let deadline):
                let delay = max(0, deadline - clock())
                timers[timer]?.cancel()
                timers[timer] = loop.scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) {
                    self.perform(self.machine.timerFired(timer, now: self.clock()))
                }
            case .cancelTimer(let timer):
                timers.removeValue(forKey: timer)?.cancel()
            case .scheduleTurnEnd:
                // After the tasks already queued on the loop: 64 calls submitted together all enqueue first.
                loop.execute { self.perform(self.machine.turnEnded(now: self.clock())) }
            case .acknowledged(let caller):
                caller.onQuickAck?()
            case .complete(.promise(let promise, _), let outcome):
                promise.completeWith(outcome)
            case .complete(.continuation(let continuation, _), let outcome):
                continuation.resume(with: outcome)
            case .completeBatch(let promise, let outcomes):
                promise.succeed(outcomes)
            case .emit(let event):
                eventsContinuation.yield(event)
                eventPipe.putNext(event)
            case .setState(let state):
                stateValue.set(state)
            case .finishEvents:
                eventsContinuation.finish()
            }
        }
    }

    /// Opens socket `id` and reports how it went.
    private func connect(_ id: Machine.SocketID) {
        connectAttempt = Task {
            do {
                _ = try await self.makeSocket(id)
                try await self.loop.submit {
                    self.connectAttempt = nil
                    self.socketOpened(id)
                }.get()
            } catch {
                try? await self.loop.submit {
                    self.connectAttempt = nil
                    self.sockets[id] = nil
                    self.perform(self.machine.connectFailed(id, now: self.clock()))
                }.get()
            }
        }
    }
}
