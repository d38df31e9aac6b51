/// Appends TL-encoded values to a growing byte array (TL §Serialization: little-endian 32-bit words).
public struct TLWriter: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]

    /// An empty writer with room for `capacity` bytes.
    @inlinable
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// `int`, little-endian.
    @inlinable
    public mutating func writeInt32(_ value: Int32) {
        writeUInt32(UInt32(bitPattern: value))
    }

    /// A constructor id or flags word, little-endian.
    @inlinable
    public mutating func writeUInt32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// `long`, little-endian.
    @inlinable
    public mutating func writeInt64(_ value: Int64) {
        withUnsafeBytes(of: UInt64(bitPattern: value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// `double`: IEEE-754, little-endian.
    @inlinable
    public mutating func writeDouble(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// `int128`: 16 bytes as stored.
    @inlinable
    public mutating func writeInt128(_ value: TLInt128) {
        withUnsafeBytes(of: value.low.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: value.high.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// `int256`: 32 bytes as stored.
    @inlinable
    public mutating func writeInt256(_ value: TLInt256) {
        writeInt128(value.low)
        writeInt128(value.high)
    }

    /// `Bool`: `boolTrue#997275b5` or `boolFalse#bc799737`.
    @inlinable
    public mutating func writeBool(_ value: Bool) {
        writeUInt32(value ? TLConstructorIds.boolTrue : TLConstructorIds.boolFalse)
    }

    /// `bytes` (TL §Serialization of strings): a 1-byte length below 254, else `0xfe` and a 3-byte length, then
    /// the data, then zero padding to a multiple of 4.
    @inlinable
    public mutating func writeBytes(_ value: [UInt8]) {
        value.withUnsafeBytes { writeBytes($0) }
    }

    /// `bytes` from raw memory.
    @inlinable
    public mutating func writeBytes(_ raw: UnsafeRawBufferPointer) {
        let count = raw.count
        let header: Int
        if count < 254 {
            bytes.append(UInt8(truncatingIfNeeded: count))
            header = 1
        } else {
            bytes.append(254)
            bytes.append(UInt8(truncatingIfNeeded: count))
            bytes.append(UInt8(truncatingIfNeeded: count >> 8))
            bytes.append(UInt8(truncatingIfNeeded: count >> 16))
            header = 4
        }
        bytes.append(contentsOf: raw)
        let padding = (4 - (header + count) % 4) % 4
        for _ in 0..<padding { bytes.append(0) }
    }

    /// `string`: UTF-8, encoded like `bytes`.
    @inlinable
    public mutating func writeString(_ value: String) {
        var value = value
        value.withUTF8 { writeBytes(UnsafeRawBufferPointer($0)) }
    }

    /// The header of a boxed vector: `vector#1cb5c415` and the element count.
    @inlinable
    public mutating func writeVectorHeader(count: Int) {
        writeUInt32(TLConstructorIds.vector)
        writeInt32(Int32(truncatingIfNeeded: count))
    }

    /// Appends already-serialized bytes.
    @inlinable
    public mutating func writeRaw(_ raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }
}

/// The built-in constructor ids (TL §Built-in types; MTProto §gzip_packed).
public enum TLConstructorIds {
    public static let vector: UInt32 = 0x1cb5_c415
    public static let boolTrue: UInt32 = 0x9972_75b5
    public static let boolFalse: UInt32 = 0xbc79_9737
    public static let trueType: UInt32 = 0x3fed_d339
    public static let gzipPacked: UInt32 = 0x3072_cfa1
}
