import Hashing
public import NIOCore

/// MTProto transports §Full: `total length` (int32, counting itself, the sequence number and the CRC), `seq_no`
/// (int32, 0, 1, 2 … per direction), the payload, and the CRC-32 of everything before it.
///
/// A server's quick ack travels as a lone 4-byte word with the top bit set; a server's transport error as a
/// 4-byte payload, or, as Telegram's servers also do, with the length and sequence both set to the negative code.
public struct FullCodec: FrameCodec {
    public let role: TransportRole
    private var sendSequence: Int32 = 0
    private var receiveSequence: Int32 = 0

    /// Envelope bytes around a payload: length, sequence number and CRC.
    static let overhead = 12

    public init(role: TransportRole) {
        self.role = role
    }

    public mutating func decode(_ buffer: inout ByteBuffer) throws(TransportError) -> TransportFrame? {
        guard let word = buffer.getInteger(at: buffer.readerIndex, endianness: .little, as: UInt32.self) else {
            return nil
        }
        if role == .client {
            if word & 0x8000_0000 != 0, Int32(bitPattern: word) < -0xffff {
                buffer.moveReaderIndex(forwardBy: 4)
                return .quickAck(word & 0x7fff_ffff)
            }
            let signed = Int32(bitPattern: word)
            if signed < 0 {
                // length = seq = code, then the code again as a body.
                guard buffer.readableBytes >= 12 else { return nil }
                buffer.moveReaderIndex(forwardBy: 8)
                return .transportError(buffer.readInteger(endianness: .little, as: Int32.self)!)
            }
        }
        let total = Int(Int32(bitPattern: word))
        guard total >= Self.overhead + 4, total % 4 == 0 else { throw .invalidLength(total) }
        guard total - Self.overhead <= TransportLimits.maximumPacketLength else {
            throw .packetTooLarge(claimed: total)
        }
        guard buffer.readableBytes >= total else { return nil }
        let start = buffer.readerIndex
        let expected = buffer.getInteger(at: start + total - 4, endianness: .little, as: UInt32.self)!
        let actual = buffer.withUnsafeReadableBytes { raw in
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<(total - 4)]))
        }
        guard expected == actual else { throw .checksumMismatch(expected: expected, actual: actual) }
        let sequence = buffer.getInteger(at: start + 4, endianness: .little, as: Int32.self)!
        guard sequence == receiveSequence else { throw .sequenceMismatch(expected: receiveSequence, actual: sequence) }
        receiveSequence &+= 1
        buffer.moveReaderIndex(forwardBy: 8)
        let payload = buffer.readSlice(length: total - Self.overhead)!
        buffer.moveReaderIndex(forwardBy: 4)
        if role == .client, let code = transportErrorCode(of: payload) { return .transportError(code) }
        return .packet(payload, quickAckRequested: false)
    }

    public mutating func encode(_ frame: TransportFrame, into out: inout ByteBuffer) throws(TransportError) {
        try frame.checkOutgoingLength()
        switch frame {
        case .packet(let payload, _):
            writeEnvelope(payload, into: &out)
        case .quickAck(let token):
            out.writeInteger(token | 0x8000_0000, endianness: .little)
        case .transportError(let code):
            writeEnvelope(.transportErrorPayload(code), into: &out)
        }
    }

    private mutating func writeEnvelope(_ payload: ByteBuffer, into out: inout ByteBuffer) {
        var payload = payload
        let start = out.writerIndex
        out.writeInteger(Int32(payload.readableBytes + Self.overhead), endianness: .little)
        out.writeInteger(sendSequence, endianness: .little)
        out.writeBuffer(&payload)
        let crc = out.withUnsafeReadableBytes { raw in
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[(start - out.readerIndex)...]))
        }
        out.writeInteger(crc, endianness: .little)
        sendSequence &+= 1
    }
}
