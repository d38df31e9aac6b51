import CryptoUtils
public import Foundation
public import Logging
public import MTProtoCore
public import MTProtoTransport
public import NIOCore

/// The one handler of a server connection that speaks MTProto: it runs the auth-key exchange on unencrypted
/// messages, decrypts everything else with the named auth key, lets the session answer service messages, and
/// passes API calls to the `RPCHandler` — answering them in the order they arrived.
///
/// Security (MTProto security guidelines): an unknown auth_key_id gets transport error −404 and the connection is
/// closed; a packet that fails the msg_key, length or padding checks closes the connection; a failed key exchange
/// closes it.
public final class ServerConnectionHandler: ChannelInboundHandler {
    public typealias InboundIn = TransportFrame
    public typealias OutboundOut = TransportFrame

    private let dcId: Int32
    private let keys: ServerKeyStore
    private let registry: SessionRegistry
    private let handler: any RPCHandler
    private let logger: Logger
    private let clock: @Sendable () -> Double
    private var exchange: AuthKeyServerExchange?
    private let dhPool: DHPairPool?
    private var plainIds = MessageIdGenerator()
    /// API calls answer in arrival order: each waits for the one before it.
    private var lastCall: EventLoopFuture<Void>?
    private var disconnectTask: Scheduled<Void>?

    public init(
        dcId: Int32, keys: ServerKeyStore, registry: SessionRegistry, handler: any RPCHandler, logger: Logger,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }, dhPool: DHPairPool? = nil
    ) {
        self.dhPool = dhPool
        self.dcId = dcId
        self.keys = keys
        self.registry = registry
        self.handler = handler
        self.logger = logger
        self.clock = clock
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .packet(let payload, let quickAck) = unwrapInboundIn(data) else { return }
        let packet = Array(payload.readableBytesView)
        if PlainMessage.isPlain(packet) {
            receivePlain(packet, context: context)
        } else {
            receiveEncrypted(packet, quickAck: quickAck, context: context)
        }
    }

    private func receivePlain(_ packet: [UInt8], context: ChannelHandlerContext) {
        let now = clock()
        do {
            let message = try PlainMessage(parsing: packet)
            if exchange == nil || AuthKeyServerExchange.isExchangeStart(message.body) {
                exchange = AuthKeyServerExchange(keys: [keys.rsaKey], dhPool: dhPool)
            }
            switch try exchange!.receive(message.body, now: now) {
            case .send(let body):
                sendPlain(body, now: now, context: context)
            case .completed(let result, let body):
                try keys.add(result.authKey)
                registry.keyCreated(result.authKey, salt: result.serverSalt)
                exchange = nil
                logger.info("auth key created", metadata: ["dc": "\(dcId)", "key": "\(result.authKey.id)"])
                sendPlain(body, now: now, context: context)
            }
        } catch {
            logger.notice("closing: key exchange failed", metadata: ["error": "\(error)"])
            context.close(promise: nil)
        }
    }

    private func sendPlain(_ body: [UInt8], now: Double, context: ChannelHandlerContext) {
        let message = PlainMessage(messageId: plainIds.next(.serverResponse, now: now), body: body)
        context.writeAndFlush(wrapOutboundOut(.packet(ByteBuffer(bytes: message.serialized()))), promise: nil)
    }

    private func receiveEncrypted(_ packet: [UInt8], quickAck: Bool, context: ChannelHandlerContext) {
        guard let keyId = EncryptedMessage.authKeyId(of: packet), let key = keys.authKey(id: keyId) else {
            logger.notice("closing: unknown auth key (-404)")
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.transportError(-404))).whenComplete { _ in
                bound.value.close(promise: nil)
            }
            return
        }
        let message: DecryptedMessage
        do {
            message = try EncryptedMessage.decrypt(packet, authKey: key, direction: .clientToServer)
        } catch {
            logger.notice("closing: encrypted message refused", metadata: ["error": "\(error)"])
            context.close(promise: nil)
            return
        }
        if quickAck { context.write(wrapOutboundOut(.quickAck(message.quickAckToken)), promise: nil) }
        let now = clock()
        let session = registry.session(for: key, sessionId: message.sessionId, dcId: dcId)
        let reaction = session.receive(message, now: now)
        if let reason = reaction.dropped { logger.debug("dropped a message", metadata: ["reason": "\(reason)"]) }
        if let delay = reaction.disconnectDelay { scheduleDisconnect(after: delay, context: context) }
        if let sealed = session.seal(reaction.replies, now: now) {
            context.write(wrapOutboundOut(.packet(ByteBuffer(bytes: sealed))), promise: nil)
        }
        context.flush()
        for call in reaction.calls { answer(call, session: session, context: context) }
    }

    /// Runs an API call off the event loop and writes its answer once every earlier call has been answered.
    private func answer(_ call: RPCCall, session: ServerSession, context: ChannelHandlerContext) {
        let loop = context.eventLoop
        let handler = self.handler
        let clock = self.clock
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        let response = loop.makeFutureWithTask { await handler.handle(call) }
        let previous = lastCall ?? loop.makeSucceededVoidFuture()
        lastCall = previous.flatMap { response }.map { response in
            let (me, context) = bound.value
            guard let sealed = session.seal([session.answer(call, with: response)], now: clock()) else { return }
            context.writeAndFlush(me.wrapOutboundOut(.packet(ByteBuffer(bytes: sealed))), promise: nil)
        }
    }

    /// `ping_delay_disconnect`: close after `delay` seconds unless another such ping arrives first.
    private func scheduleDisconnect(after delay: Int32, context: ChannelHandlerContext) {
        disconnectTask?.cancel()
        guard delay > 0 else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        disconnectTask = context.eventLoop.scheduleTask(in: .seconds(Int64(delay))) {
            bound.value.close(promise: nil)
        }
    }

    public func channelInactive(context: ChannelHandlerContext) {
        disconnectTask?.cancel()
        context.fireChannelInactive()
    }

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.notice("closing: transport error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }
}

@available(*, unavailable)
extension ServerConnectionHandler: Sendable {}
