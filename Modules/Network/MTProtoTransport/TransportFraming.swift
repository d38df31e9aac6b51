/// The TCP envelopes of MTProto's transport layer (MTProto docs §Transports): how one MTProto packet is delimited on
/// the byte stream.
public enum TransportFraming: String, Sendable, CaseIterable, CustomStringConvertible {
    /// One length byte (`length/4`, or `0x7f` + 3 bytes), §Abridged. Tag `0xef` (plain), `0xefefefef` (obfuscated).
    case abridged
    /// A 4-byte little-endian length, §Intermediate. Tag `0xeeeeeeee`.
    case intermediate
    /// Intermediate with 0–15 random padding bytes after the payload, §Padded intermediate. Tag `0xdddddddd`.
    case paddedIntermediate
    /// Length, sequence number, payload, CRC-32, §Full. No tag; plain TCP only (never obfuscated).
    case full

    public var description: String { rawValue }

    /// The 4-byte tag an obfuscated2 header carries at offset 56 for this framing; `nil` for `full`.
    public var obfuscatedTag: UInt32? {
        switch self {
        case .abridged: return 0xefef_efef
        case .intermediate: return 0xeeee_eeee
        case .paddedIntermediate: return 0xdddd_dddd
        case .full: return nil
        }
    }

    /// The framing an obfuscated2 header's tag names.
    public init?(obfuscatedTag tag: UInt32) {
        guard let framing = Self.allCases.first(where: { $0.obfuscatedTag == tag }) else { return nil }
        self = framing
    }

    /// The bytes a client sends first on a plain (not obfuscated) connection.
    public var plainPreamble: [UInt8] {
        switch self {
        case .abridged: return [0xef]
        case .intermediate: return [0xee, 0xee, 0xee, 0xee]
        case .paddedIntermediate: return [0xdd, 0xdd, 0xdd, 0xdd]
        case .full: return []
        }
    }
}

/// Which end of a connection a codec serves; quick acks and transport errors only flow server → client.
public enum TransportRole: Sendable {
    case client, server
}

/// Limits the transport enforces before allocating anything.
public enum TransportLimits {
    /// The largest MTProto packet accepted on the wire. Telegram's own limit for a message is 1 MiB plus
    /// envelopes (upload parts are at most 512 KiB); a length prefix beyond this closes the connection.
    public static let maximumPacketLength = 2 << 20
    /// Padded intermediate adds at most this many random bytes (§Padded intermediate: 0–15).
    public static let maximumPadding = 15
}
