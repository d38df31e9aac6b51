import Glibc
import MTProtoTransport
import NIOCore
import NIOPosix

/// One client connection of the proxy, on the accepted channel: reads the opening (`MTProxyOpening`), answers a
/// fake-TLS hello, connects the data center the header names on the same event loop and relays both ways —
/// client bytes decrypted with the client's streams and encrypted with a fresh obfuscated2 stream towards the DC,
/// and back — or hands a connection that is not a client to the front, or leaves it unanswered.
final class ClientSideHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        case opening(MTProxyOpening)
        case connecting(MTProxyOpening.Client, records: FakeTLSRecords.Reader, pending: [UInt8])
        case relaying(MTProxyOpening.Client, records: FakeTLSRecords.Reader, toDC: ObfuscationCiphers, dc: any Channel)
        case fronting(pending: [UInt8], front: (any Channel)?)
        case silent
        case closed
    }

    private let configuration: MTProxyConfiguration
    private var state: State
    private var handshakeTimer: Scheduled<Void>?
    /// The partner has writes waiting for a flush: one system call at the end of a read burst
    /// (`channelReadComplete`), not one per read.
    private var partnerNeedsFlush = false

    init(configuration: MTProxyConfiguration, replays: ReplayCache) {
        self.configuration = configuration
        state = .opening(
            MTProxyOpening(
                keys: configuration.keys, paddedOnly: configuration.paddedOnly, now: UInt32(time(nil)),
                replays: replays))
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        handshakeTimer = context.eventLoop.scheduleTask(in: configuration.handshakeTimeout) {
            channel.close(promise: nil)
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        handshakeTimer?.cancel()
        switch state {
        case .relaying(_, _, _, let dc):
            dc.flush()
            dc.close(promise: nil)
        case .fronting(_, let front?):
            front.flush()
            front.close(promise: nil)
        default: break
        }
        state = .closed
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent { context.close(promise: nil) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        if case .relaying(let client, _, let toDC, let dc) = state, !client.fakeTLS {
            // The steady state of a plain or dd client: re-encrypted in place, no copy.
            buffer.withUnsafeMutableReadableBytes {
                client.ciphers.decrypt($0)
                toDC.encrypt($0)
            }
            dc.write(buffer, promise: nil)
            partnerNeedsFlush = true
            return
        }
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        switch state {
        case .opening(var opening):
            var step = opening.receive(bytes)
            while case .answer(let answer) = step {
                context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: answer)), promise: nil)
                step = opening.receive([UInt8]())
            }
            switch step {
            case .needMore, .answer:
                state = .opening(opening)
            case .relay(let client):
                connectDC(for: client, context: context)
            case .refuse(_, let received):
                refuse(received: received, context: context)
            }
        case .connecting(let client, var records, var pending):
            do {
                pending += client.fakeTLS ? try records.receive(bytes) : bytes
            } catch {
                context.close(promise: nil)
                return
            }
            guard pending.count <= configuration.maximumPendingBytes else {
                context.close(promise: nil)
                return
            }
            state = .connecting(client, records: records, pending: pending)
        case .relaying(let client, var records, let toDC, let dc):
            var payload: [UInt8]
            do {
                payload = client.fakeTLS ? try records.receive(bytes) : bytes
            } catch {
                context.close(promise: nil)
                return
            }
            state = .relaying(client, records: records, toDC: toDC, dc: dc)
            guard !payload.isEmpty else { return }
            payload.withUnsafeMutableBytes {
                client.ciphers.decrypt($0)
                toDC.encrypt($0)
            }
            dc.write(dc.allocator.buffer(bytes: payload), promise: nil)
            partnerNeedsFlush = true
        case .fronting(var pending, let front):
            if let front {
                front.write(front.allocator.buffer(bytes: bytes), promise: nil)
                partnerNeedsFlush = true
            } else {
                pending += bytes
                guard pending.count <= configuration.maximumPendingBytes else {
                    context.close(promise: nil)
                    return
                }
                state = .fronting(pending: pending, front: nil)
            }
        case .silent, .closed:
            return
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if partnerNeedsFlush {
            partnerNeedsFlush = false
            switch state {
            case .relaying(_, _, _, let partner), .fronting(_, let partner?): partner.flush()
            default: break
            }
        }
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // The DC's (or front's) socket reads only as fast as the client takes what it sends.
        switch state {
        case .relaying(_, _, _, let partner), .fronting(_, let partner?):
            partner.setOption(ChannelOptions.autoRead, value: context.channel.isWritable).whenFailure { _ in }
        default: break
        }
        context.fireChannelWritabilityChanged()
    }

    private func connectDC(for client: MTProxyOpening.Client, context: ChannelHandlerContext) {
        let dcNumber = Int16(truncatingIfNeeded: abs(Int(client.dcId)))
        guard let address = configuration.datacenters[dcNumber] else {
            context.close(promise: nil)
            return
        }
        state = .connecting(client, records: client.records, pending: client.rest)
        let clientChannel = context.channel
        let loop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        let header: ObfuscatedHeader
        do {
            // 64 random bytes, each one `next()`: drawn in one block, not 64 system calls.
            var generator = BlockRandomGenerator(capacity: 64)
            header = try ObfuscatedHeader.makeClientHeader(
                framing: client.framing, dcId: client.dcId, secret: nil, using: &generator)
        } catch {
            context.close(promise: nil)
            return
        }
        let bootstrap = ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(configuration.handshakeTimeout)
            .channelInitializer { dc in
                dc.eventLoop.makeCompletedFuture {
                    try dc.pipeline.syncOperations.addHandler(
                        PartnerHandler(
                            partner: clientChannel, transform: .fromDC(dc: header.ciphers, client: client)))
                }
            }
        // An IP address is connected to as it is: a host name goes through NIO's resolver (getaddrinfo on a thread
        // of its own, then Happy Eyeballs), which a literal does not need on every client's connect.
        let connected =
            if let literal = try? SocketAddress(ipAddress: address.host, port: address.port) {
                bootstrap.connect(to: literal)
            } else {
                bootstrap.connect(host: address.host, port: address.port)
            }
        connected.whenComplete { result in
            switch result {
            case .success(let dc): bound.value.handler.dcConnected(dc, header: header, context: bound.value.context)
            case .failure: clientChannel.close(promise: nil)
            }
        }
    }

    private func dcConnected(_ dc: any Channel, header: ObfuscatedHeader, context: ChannelHandlerContext) {
        guard case .connecting(let client, let records, var pending) = state else {
            dc.close(promise: nil)
            return
        }
        handshakeTimer?.cancel()
        pending.withUnsafeMutableBytes {
            client.ciphers.decrypt($0)
            header.ciphers.encrypt($0)
        }
        state = .relaying(client, records: records, toDC: header.ciphers, dc: dc)
        dc.writeAndFlush(dc.allocator.buffer(bytes: header.bytes + pending), promise: nil)
        dc.setOption(ChannelOptions.autoRead, value: context.channel.isWritable).whenFailure { _ in }
    }

    private func refuse(received: [UInt8], context: ChannelHandlerContext) {
        guard let front = configuration.front else {
            state = .silent
            return
        }
        state = .fronting(pending: received, front: nil)
        let clientChannel = context.channel
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        ClientBootstrap(group: context.eventLoop)
            .connectTimeout(configuration.handshakeTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        PartnerHandler(partner: clientChannel, transform: .none))
                }
            }
            .connect(host: front.host, port: front.port)
            .whenComplete { result in
                let handler = bound.value
                guard case .success(let channel) = result, case .fronting(let pending, nil) = handler.state else {
                    clientChannel.close(promise: nil)
                    return
                }
                handler.handshakeTimer?.cancel()
                handler.state = .fronting(pending: [], front: channel)
                channel.writeAndFlush(channel.allocator.buffer(bytes: pending), promise: nil)
            }
    }
}

@available(*, unavailable)
extension ClientSideHandler: Sendable {}

/// The far side of a relayed connection — the data center, or the front — passing what it reads to the client:
/// from a DC, decrypted with the proxy's stream to it, encrypted with the client's, and put in TLS records for a
/// fake-TLS client.
final class PartnerHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    enum Transform {
        case none
        case fromDC(dc: ObfuscationCiphers, client: MTProxyOpening.Client)
    }

    private let partner: any Channel
    private let transform: Transform
    /// Writes to the partner wait for the end of the read burst (`channelReadComplete`): one flush for them all.
    private var partnerNeedsFlush = false

    init(partner: any Channel, transform: Transform) {
        self.partner = partner
        self.transform = transform
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        switch transform {
        case .none:
            partner.write(buffer, promise: nil)
        case .fromDC(let dc, let client):
            // Re-encrypted in place; only fake-TLS copies, into its records.
            buffer.withUnsafeMutableReadableBytes {
                dc.decrypt($0)
                client.ciphers.encrypt($0)
            }
            if client.fakeTLS {
                let records = FakeTLSRecords.wrap(Array(buffer.readableBytesView), chunk: 16_384)
                partner.write(partner.allocator.buffer(bytes: records), promise: nil)
            } else {
                partner.write(buffer, promise: nil)
            }
        }
        partnerNeedsFlush = true
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if partnerNeedsFlush {
            partnerNeedsFlush = false
            partner.flush()
        }
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        partner.setOption(ChannelOptions.autoRead, value: context.channel.isWritable).whenFailure { _ in }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner.flush()
        partner.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

@available(*, unavailable)
extension PartnerHandler: Sendable {}
