public import NIOCore

/// MTProto transports §Intermediate and §Padded intermediate: a 4-byte little-endian length, then the payload (and,
/// padded, random bytes the length includes: 0–15 from a client, as TDLib sends; 0–3 from a server, as Telegram's
/// own MTProxy sends them, `lrand48() & 3` in `net/net-tcp-rpc-common.c` — clients such as Telethon strip exactly
/// `length % 4` bytes and could not read more). A client sets the length's top bit to request a quick ack; a
/// server's quick ack is a lone 4-byte word with the top bit set.
///
/// A padded frame's padding is not delimited: the decoder strips `length % 4` bytes, since MTProto packets are
/// whole 4-byte words; the MTProto layer ignores any further trailing bytes (encrypted data is cut to a multiple of
/// 16, plain messages carry their own length).
public struct IntermediateCodec: FrameCodec {
    public let role: TransportRole
    public let padded: Bool
    private var random = SystemRandomNumberGenerator()

    public init(role: TransportRole, padded: Bool) {
        self.role = role
        self.padded = padded
    }

    public mutating func decode(_ buffer: inout ByteBuffer) throws(TransportError) -> TransportFrame? {
        guard let word = buffer.getInteger(at: buffer.readerIndex, endianness: .little, as: UInt32.self) else {
            return nil
        }
        if word & 0x8000_0000 != 0 && role == .client {
            buffer.moveReaderIndex(forwardBy: 4)
            return .quickAck(word & 0x7fff_ffff)
        }
        let quickAck = role == .server && word & 0x8000_0000 != 0
        let length = Int(word & 0x7fff_ffff)
        guard length > 0 else { throw .invalidLength(length) }
        guard length <= TransportLimits.maximumPacketLength + TransportLimits.maximumPadding else {
            throw .packetTooLarge(claimed: length)
        }
        if !padded && length % 4 != 0 { throw .invalidLength(length) }
        guard buffer.readableBytes >= 4 + length else { return nil }
        buffer.moveReaderIndex(forwardBy: 4)
        var payload = buffer.readSlice(length: length)!
        if padded, length % 4 != 0 {
            payload = payload.getSlice(at: payload.readerIndex, length: length - length % 4)!
        }
        if role == .client, let code = transportErrorCode(of: payload) { return .transportError(code) }
        return .packet(payload, quickAckRequested: quickAck)
    }

    public mutating func encode(_ frame: TransportFrame, into out: inout ByteBuffer) throws(TransportError) {
        try frame.checkOutgoingLength()
        switch frame {
        case .packet(var payload, let quickAck):
            let padding =
                padded ? Int.random(in: 0...(role == .client ? TransportLimits.maximumPadding : 3), using: &random) : 0
            var length = UInt32(payload.readableBytes + padding)
            if quickAck && role == .client { length |= 0x8000_0000 }
            out.writeInteger(length, endianness: .little)
            out.writeBuffer(&payload)
            for _ in 0..<padding { out.writeInteger(UInt8.random(in: 0...255, using: &random)) }
        case .quickAck(let token):
            out.writeInteger(token | 0x8000_0000, endianness: .little)
        case .transportError(let code):
            out.writeInteger(UInt32(4), endianness: .little)
            out.writeInteger(code, endianness: .little)
        }
    }
}
