public import NIOCore

/// Splits a byte stream into `TransportFrame`s and writes frames back, for one framing and one role.
///
/// Decoding is incremental: `decode` returns `nil` until a whole frame is buffered, and throws `TransportError` the
/// moment the stream is known to be bad (before allocating for a claimed length).
public protocol FrameCodec: Sendable {
    /// Decodes one frame from the front of `buffer`, consuming it; `nil` when more bytes are needed.
    mutating func decode(_ buffer: inout ByteBuffer) throws(TransportError) -> TransportFrame?
    /// Appends `frame`'s envelope and bytes to `out`; a packet longer than `TransportLimits.maximumPacketLength`
    /// (which no framing's length field could carry intact, and no peer would accept) is refused, `out` untouched.
    mutating func encode(_ frame: TransportFrame, into out: inout ByteBuffer) throws(TransportError)
}

extension TransportFrame {
    /// Refuses a packet too long to send (the abridged length would wrap at 2²⁴ words, the peer's limit is lower).
    func checkOutgoingLength() throws(TransportError) {
        if case .packet(let payload, _) = self, payload.readableBytes > TransportLimits.maximumPacketLength {
            throw .outgoingPacketTooLarge(payload.readableBytes)
        }
        if case .packet(let payload, _) = self, payload.readableBytes % 4 != 0 {
            throw .invalidLength(payload.readableBytes)
        }
    }
}

/// Creates the codec for a framing and a role.
public func makeFrameCodec(_ framing: TransportFraming, role: TransportRole) -> any FrameCodec {
    switch framing {
    case .abridged: return AbridgedCodec(role: role)
    case .intermediate: return IntermediateCodec(role: role, padded: false)
    case .paddedIntermediate: return IntermediateCodec(role: role, padded: true)
    case .full: return FullCodec(role: role)
    }
}

extension ByteBuffer {
    /// The payload of a transport error frame: the code as a little-endian int32.
    static func transportErrorPayload(_ code: Int32, allocator: ByteBufferAllocator = .init()) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 4)
        buffer.writeInteger(code, endianness: .little)
        return buffer
    }
}

/// Reads a 4-byte payload as a transport error code when it is one (negative), as clients do (−404, −429).
func transportErrorCode(of payload: ByteBuffer) -> Int32? {
    guard payload.readableBytes == 4,
        let code = payload.getInteger(at: payload.readerIndex, endianness: .little, as: Int32.self), code < 0
    else { return nil }
    return code
}
