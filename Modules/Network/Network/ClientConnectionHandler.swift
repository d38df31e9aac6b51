public import AccountNetworking
import Foundation
import MTProtoCore
import MTProtoTransport
import NIOCore

/// The one handler of a client connection that speaks MTProto: it runs the auth-key exchange, then a
/// `ClientSession`, and completes each request's promise when its answer arrives. Confined to the channel's
/// event loop; `MTProtoConnection` calls in through `eventLoop.submit`.
final class ClientConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = TransportFrame
    typealias OutboundOut = TransportFrame

    private let clock: @Sendable () -> Double
    private var context: ChannelHandlerContext?
    private var exchange: AuthKeyClientExchange?
    private var exchangePromise: EventLoopPromise<AuthKeyExchangeResult>?
    private var plainIds = MessageIdGenerator()
    private(set) var session: ClientSession?
    private var waiting: [Int64: EventLoopPromise<[UInt8]>] = [:]
    private var closedError: NetworkError?
    /// Where messages the server sends on its own (updates) go.
    private let onUpdate: @Sendable ([UInt8]) -> Void
    /// Seconds a request waits for its answer before it fails with `NetworkError.timedOut`.
    private let answerTimeout: Double

    init(
        clock: @escaping @Sendable () -> Double, answerTimeout: Double = 60,
        onUpdate: @escaping @Sendable ([UInt8]) -> Void = { _ in }
    ) {
        self.clock = clock
        self.answerTimeout = answerTimeout
        self.onUpdate = onUpdate
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// Starts an auth-key exchange; the future completes with the new key, or fails when the connection closes or
    /// no key comes within `timeout` seconds.
    func createKey(_ exchange: AuthKeyClientExchange, timeout: Double) -> EventLoopFuture<AuthKeyExchangeResult> {
        guard let context else { preconditionFailure("handler not in a pipeline") }
        var exchange = exchange
        let promise = context.eventLoop.makePromise(of: AuthKeyExchangeResult.self)
        // A connection that closed before the exchange began has already failed everything it held: this promise
        // would wait forever.
        if let closedError {
            promise.fail(closedError)
            return promise.futureResult
        }
        exchangePromise = promise
        let deadline = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(timeout * 1e9))) { [weak self] in
            guard let self, let waiting = self.exchangePromise, waiting.futureResult === promise.futureResult else {
                return
            }
            self.exchangePromise = nil
            self.exchange = nil
            waiting.fail(NetworkError.timedOut(timeout))
        }
        promise.futureResult.whenComplete { _ in deadline.cancel() }
        let body = exchange.start()
        self.exchange = exchange
        sendPlain(body)
        return promise.futureResult
    }

    /// Uses an existing key from now on.
    func startSession(_ session: ClientSession) {
        self.session = session
    }

    /// Encrypts and sends a request; the future completes with the result's bytes.
    func send(_ body: [UInt8]) -> EventLoopFuture<[UInt8]> {
        send { _ in body }
    }

    /// Encrypts and sends a request whose body may name the msg_id it is sent with; the future completes with the
    /// result's bytes.
    func send(_ makeBody: (_ messageId: Int64) -> [UInt8]) -> EventLoopFuture<[UInt8]> {
        guard let context else { preconditionFailure("handler not in a pipeline") }
        let promise = context.eventLoop.makePromise(of: [UInt8].self)
        if let closedError {
            promise.fail(closedError)
            return promise.futureResult
        }
        guard session != nil else {
            promise.fail(NetworkError.connectionClosed)
            return promise.futureResult
        }
        var size = 0
        do {
            let (token, packets) = try session!.send(now: clock()) { id in
                let body = makeBody(id)
                size = body.count
                return body
            }
            waiting[token] = promise
            let timeout = answerTimeout
            let deadline = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(timeout * 1e9))) { [weak self] in
                self?.waiting.removeValue(forKey: token)?.fail(NetworkError.timedOut(timeout))
            }
            promise.futureResult.whenComplete { _ in deadline.cancel() }
            for packet in packets { context.write(wrapOutboundOut(.packet(ByteBuffer(bytes: packet))), promise: nil) }
            context.flush()
        } catch {
            promise.fail(NetworkError.requestTooLarge(size))
        }
        return promise.futureResult
    }

    private func sendPlain(_ body: [UInt8]) {
        guard let context else { return }
        let message = PlainMessage(messageId: plainIds.next(.client, now: clock()), body: body)
        context.writeAndFlush(wrapOutboundOut(.packet(ByteBuffer(bytes: message.serialized()))), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .packet(let payload, _):
            let packet = Array(payload.readableBytesView)
            if PlainMessage.isPlain(packet) {
                receivePlain(packet)
            } else {
                receiveEncrypted(packet, context: context)
            }
        case .quickAck:
            break
        case .transportError(let code):
            fail(code == -404 ? .authKeyUnknown : .transport(code: code))
            context.close(promise: nil)
        }
    }

    private func receivePlain(_ packet: [UInt8]) {
        guard var exchange, let promise = exchangePromise else { return }
        do {
            let message = try PlainMessage(parsing: packet)
            switch try exchange.receive(message.body, now: clock()) {
            case .send(let body):
                self.exchange = exchange
                sendPlain(body)
            case .completed(let result):
                self.exchange = nil
                exchangePromise = nil
                promise.succeed(result)
            }
        } catch let error as AuthKeyExchangeError {
            exchangePromise = nil
            promise.fail(NetworkError.keyExchange(error))
        } catch {
            exchangePromise = nil
            promise.fail(NetworkError.keyExchange(.unexpectedMessage("\(error)")))
        }
    }

    private func receiveEncrypted(_ packet: [UInt8], context: ChannelHandlerContext) {
        guard session != nil else { return }
        // A message that fails a security check is dropped (MTProto security guidelines: ignore it).
        guard let (events, resend) = try? session!.receive(packet, now: clock()) else { return }
        for packet in resend {
            context.write(wrapOutboundOut(.packet(ByteBuffer(bytes: packet))), promise: nil)
        }
        if !resend.isEmpty { context.flush() }
        for event in events {
            if case .update(let body) = event { onUpdate(body) }
            guard case .result(let token, let result) = event, let promise = waiting.removeValue(forKey: token) else {
                continue
            }
            switch result {
            case .success(let answer): promise.succeed(answer.bytes)
            case .failure(let error): promise.fail(NetworkError.rpc(code: error.code, message: error.message))
            }
        }
    }

    private func fail(_ error: NetworkError) {
        closedError = closedError ?? error
        exchangePromise?.fail(error)
        exchangePromise = nil
        let all = waiting
        waiting = [:]
        for promise in all.values { promise.fail(error) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(.connectionClosed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(.connectionClosed)
        context.close(promise: nil)
    }
}

@available(*, unavailable)
extension ClientConnectionHandler: Sendable {}
