public import NIOCore

/// MTProto transports §Abridged: `length/4` in one byte (`0x01…0x7e`), or `0x7f` followed by `length/4` in three
/// little-endian bytes. A client sets the top bit of that first byte (`0x80 | l`, or `0xff`) to request a quick ack;
/// a server's quick ack is four bytes, byte-swapped, so that the first byte has its top bit set.
public struct AbridgedCodec: FrameCodec {
    public let role: TransportRole

    public init(role: TransportRole) {
        self.role = role
    }

    public mutating func decode(_ buffer: inout ByteBuffer) throws(TransportError) -> TransportFrame? {
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        var quickAck = false
        var marker = first
        if first & 0x80 != 0 {
            if role == .client {
                // Server → client: a quick ack token, big-endian with the top bit set.
                guard let token = buffer.readInteger(endianness: .big, as: UInt32.self) else { return nil }
                return .quickAck(token & 0x7fff_ffff)
            }
            quickAck = true
            marker = first & 0x7f
        }
        var headerLength = 1
        var words = Int(marker)
        if marker == 0x7f {
            guard buffer.readableBytes >= 4 else { return nil }
            let b0 = Int(buffer.getInteger(at: buffer.readerIndex + 1, as: UInt8.self)!)
            let b1 = Int(buffer.getInteger(at: buffer.readerIndex + 2, as: UInt8.self)!)
            let b2 = Int(buffer.getInteger(at: buffer.readerIndex + 3, as: UInt8.self)!)
            words = b0 | b1 << 8 | b2 << 16
            headerLength = 4
        }
        let length = words * 4
        guard length > 0 else { throw .invalidLength(length) }
        guard length <= TransportLimits.maximumPacketLength else { throw .packetTooLarge(claimed: length) }
        guard buffer.readableBytes >= headerLength + length else { return nil }
        buffer.moveReaderIndex(forwardBy: headerLength)
        let payload = buffer.readSlice(length: length)!
        if role == .client, let code = transportErrorCode(of: payload) { return .transportError(code) }
        return .packet(payload, quickAckRequested: quickAck)
    }

    public mutating func encode(_ frame: TransportFrame, into out: inout ByteBuffer) throws(TransportError) {
        try frame.checkOutgoingLength()
        switch frame {
        case .packet(var payload, let quickAck):
            writeHeader(words: payload.readableBytes / 4, quickAck: quickAck && role == .client, into: &out)
            out.writeBuffer(&payload)
        case .quickAck(let token):
            out.writeInteger(token | 0x8000_0000, endianness: .big)
        case .transportError(let code):
            writeHeader(words: 1, quickAck: false, into: &out)
            out.writeInteger(code, endianness: .little)
        }
    }

    private func writeHeader(words: Int, quickAck: Bool, into out: inout ByteBuffer) {
        let flag: UInt8 = quickAck ? 0x80 : 0
        if words < 0x7f {
            out.writeInteger(UInt8(words) | flag)
        } else {
            out.writeInteger(0x7f | flag)
            out.writeInteger(UInt8(truncatingIfNeeded: words))
            out.writeInteger(UInt8(truncatingIfNeeded: words >> 8))
            out.writeInteger(UInt8(truncatingIfNeeded: words >> 16))
        }
    }
}
