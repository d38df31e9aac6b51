public import NIOCore

/// One unit read off or written to the transport.
public enum TransportFrame: Sendable, Equatable {
    /// An MTProto packet. `quickAckRequested` is the client's request bit (§Quick ack), seen by the server.
    case packet(ByteBuffer, quickAckRequested: Bool = false)
    /// The server's quick acknowledgement: the first 32 bits of `msg_key_large` with the top bit cleared.
    case quickAck(UInt32)
    /// A transport error: a 4-byte packet holding a negative code (−404 unknown auth key, −429 flood, …).
    case transportError(Int32)
}

/// Why the transport closed a connection. Each case names what was wrong; none is recoverable on that stream.
public enum TransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A length prefix claims more than `TransportLimits.maximumPacketLength`.
    case packetTooLarge(claimed: Int)
    /// A length that the framing forbids (zero, negative, not a multiple of 4 where it must be).
    case invalidLength(Int)
    /// The full framing's CRC-32 did not match.
    case checksumMismatch(expected: UInt32, actual: UInt32)
    /// The full framing's sequence number skipped or repeated.
    case sequenceMismatch(expected: Int32, actual: Int32)
    /// The first bytes of a connection name no transport this server speaks.
    case unknownTransport(firstBytes: [UInt8])
    /// An obfuscated2 header whose decrypted tag is not a framing (wrong secret, or garbage).
    case invalidObfuscatedHeader
    /// An obfuscated2 header asked for the full framing, which obfuscation does not carry.
    case fullFramingCannotBeObfuscated
    /// A packet to send is longer than `TransportLimits.maximumPacketLength`.
    case outgoingPacketTooLarge(Int)
    /// A frame (or the transport's first bytes) did not arrive whole within the connection's frame timeout.
    case frameTimeout(seconds: Double)

    public var description: String {
        switch self {
        case .packetTooLarge(let claimed):
            return "packet length \(claimed) exceeds the limit of \(TransportLimits.maximumPacketLength) bytes"
        case .invalidLength(let length): return "invalid packet length \(length)"
        case let .checksumMismatch(expected, actual):
            return "CRC-32 mismatch: frame says \(hex32(expected)), data gives \(hex32(actual))"
        case let .sequenceMismatch(expected, actual): return "sequence number \(actual), expected \(expected)"
        case .unknownTransport(let bytes): return "unknown transport; first bytes \(bytes)"
        case .invalidObfuscatedHeader: return "obfuscated2 header with an unknown protocol tag"
        case .fullFramingCannotBeObfuscated: return "the full framing cannot be obfuscated"
        case .outgoingPacketTooLarge(let length):
            return "refusing to send a \(length)-byte packet: the limit is \(TransportLimits.maximumPacketLength) bytes"
        case .frameTimeout(let seconds): return "no whole frame within \(seconds) s of its first byte"
        }
    }
}

/// Eight lower-case hexadecimal digits.
func hex32(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
