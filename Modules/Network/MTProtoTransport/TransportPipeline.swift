import Glibc
public import NIOCore

/// How a client connection hides its framing (MTProto transports §Transport obfuscation).
public enum TransportObfuscation: Sendable, Equatable {
    /// Plain: the framing's preamble, then frames.
    case none
    /// obfuscated2: a 64-byte header and AES-256-CTR both ways; `secret` is an MTProxy secret (16 bytes, or 17
    /// starting with `0xdd`, which forces padded intermediate). `dcId` is written at offset 60.
    case obfuscated2(dcId: Int16, secret: [UInt8]? = nil)
    /// MTProxy's fake-TLS (`ee` secrets): a TLS 1.3-looking ClientHello for `domain` signed with the 16-byte `key`,
    /// then obfuscated2 keyed by `key` inside TLS application-data records. Only the padded intermediate framing.
    case fakeTLS(dcId: Int16, key: [UInt8], domain: String)
}

/// Builds the handler chains both ends of a connection use, so the real sockets and the embedded tests share them.
public enum TransportPipeline {
    /// Client side: frame codec (with the plain preamble when not obfuscated), and the obfuscation layer below it.
    public static func addClientHandlers(
        framing: TransportFraming, obfuscation: TransportObfuscation, to pipeline: ChannelPipeline.SynchronousOperations
    ) throws {
        switch obfuscation {
        case .none:
            try pipeline.addHandlers([
                ByteToMessageHandler(FrameDecoder(framing: framing, role: .client)),
                FrameEncoder(framing: framing, role: .client, sendsPreamble: true),
            ])
        case .obfuscated2(let dcId, let secret):
            let header = try ObfuscatedHeader.makeClientHeader(framing: framing, dcId: dcId, secret: secret)
            try pipeline.addHandlers([
                ObfuscationHandler(ciphers: header.ciphers, headerToSend: header.bytes),
                ByteToMessageHandler(FrameDecoder(framing: framing, role: .client)),
                FrameEncoder(framing: framing, role: .client, sendsPreamble: false),
            ])
        case .fakeTLS(let dcId, let key, let domain):
            guard framing == .paddedIntermediate else { throw TransportError.invalidObfuscatedHeader }
            let header = try ObfuscatedHeader.makeClientHeader(framing: framing, dcId: dcId, secret: key)
            try pipeline.addHandlers([
                FakeTLSClientHandler(key: key, domain: domain, clock: { UInt32(time(nil)) }),
                ObfuscationHandler(ciphers: header.ciphers, headerToSend: header.bytes),
                ByteToMessageHandler(FrameDecoder(framing: framing, role: .client)),
                FrameEncoder(framing: framing, role: .client, sendsPreamble: false),
            ])
        }
    }

    /// Server side: a detector that recognises plain and obfuscated2 transports, deobfuscates with any of
    /// `secrets` (or none), and installs the frame codec followed by `consumer()`'s handlers. `frameTimeout` bounds
    /// how long the transport's first bytes and then each frame may take to arrive whole.
    public static func serverDetector(
        secrets: [[UInt8]] = [], frameTimeout: TimeAmount? = nil, http: HTTPTransportLimits = .init(),
        consumer: @escaping () throws -> [any ChannelHandler]
    ) -> TransportDetector {
        TransportDetector(timeout: frameTimeout) { detected, context in
            var handlers: [any ChannelHandler] = []
            switch detected {
            case .http:
                handlers.append(ByteToMessageHandler(HTTPRequestDecoder(limits: http)))
                handlers.append(HTTPServerFrameAdapter(limits: http))
            case .plain(let framing, _):
                handlers.append(
                    ByteToMessageHandler(FrameDecoder(framing: framing, role: .server, frameTimeout: frameTimeout)))
                handlers.append(FrameEncoder(framing: framing, role: .server, sendsPreamble: false))
            case .obfuscated:
                // The header is still at the front of the stream; this handler reads it, learns the framing and
                // puts that framing's codec after itself.
                handlers.append(ServerObfuscationHandler(secrets: secrets, frameTimeout: frameTimeout))
            }
            handlers.append(contentsOf: try consumer())
            try context.pipeline.syncOperations.addHandlers(handlers, position: .after(context.handler))
        }
    }
}
