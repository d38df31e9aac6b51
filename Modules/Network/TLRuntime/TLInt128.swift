/// TL `int128`: 16 opaque bytes (nonces), held as two little-endian words.
public struct TLInt128: Hashable, Sendable, CustomStringConvertible {
    /// Bytes 0–7, little-endian.
    public var low: UInt64
    /// Bytes 8–15, little-endian.
    public var high: UInt64

    /// A value from its two words.
    @inlinable
    public init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// A value from 16 bytes in wire order; `nil` for another count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        var low: UInt64 = 0
        var high: UInt64 = 0
        for i in 0..<8 {
            low |= UInt64(bytes[i]) << (8 * i)
            high |= UInt64(bytes[8 + i]) << (8 * i)
        }
        self.init(low: low, high: high)
    }

    /// The 16 bytes in wire order.
    public var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: low >> (8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * $0)) }
    }

    /// Hex of the wire bytes.
    public var description: String { bytes.map { String($0, radix: 16).leftPadded }.joined() }
}

/// TL `int256`: 32 opaque bytes (`new_nonce`), held as two `TLInt128` halves.
public struct TLInt256: Hashable, Sendable, CustomStringConvertible {
    /// Bytes 0–15.
    public var low: TLInt128
    /// Bytes 16–31.
    public var high: TLInt128

    /// A value from its halves.
    @inlinable
    public init(low: TLInt128, high: TLInt128) {
        self.low = low
        self.high = high
    }

    /// A value from 32 bytes in wire order; `nil` for another count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32, let low = TLInt128(bytes: Array(bytes[0..<16])),
            let high = TLInt128(bytes: Array(bytes[16..<32]))
        else { return nil }
        self.init(low: low, high: high)
    }

    /// The 32 bytes in wire order.
    public var bytes: [UInt8] { low.bytes + high.bytes }

    /// Hex of the wire bytes.
    public var description: String { low.description + high.description }
}

extension String {
    var leftPadded: String { count == 1 ? "0" + self : self }
}
