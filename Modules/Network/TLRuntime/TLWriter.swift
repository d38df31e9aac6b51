/// Appends TL-encoded values to a growing byte buffer (TL §Serialization: little-endian 32-bit words).
///
/// The storage is a zero-filled array at least `count` long that grows by doubling; values are stored straight into
/// it, so writing an `int` is a bounds check and a 4-byte store rather than an `Array.append`.
///
/// A value TL cannot encode (a `bytes` of 16 MiB or more, whose length does not fit the 3-byte prefix) is not
/// written truncated: the writer records a `TLEncodingError` in `failure`, and `encoded()` throws it.
public struct TLWriter: Sendable {
    @usableFromInline var storage: [UInt8]
    /// The first value that could not be encoded; the bytes written are then not a valid encoding.
    public var failure: TLEncodingError? { encodingFailure }
    @usableFromInline var encodingFailure: TLEncodingError?
    /// Number of bytes written.
    public var count: Int { written }
    @usableFromInline var written: Int

    /// An empty writer with room for `capacity` bytes.
    @inlinable
    public init(capacity: Int = 256) {
        storage = [UInt8](repeating: 0, count: max(capacity, 16))
        written = 0
        encodingFailure = nil
    }

    /// The bytes written so far (a copy).
    @inlinable
    public var bytes: [UInt8] { Array(storage[0..<written]) }

    /// The bytes written, without copying: the writer is consumed.
    @inlinable
    public consuming func takeBytes() -> [UInt8] {
        storage.removeSubrange(written...)
        return storage
    }

    /// Forgets what was written, keeping the capacity.
    @inlinable
    public mutating func reset() {
        written = 0
        encodingFailure = nil
    }

    /// Makes room for `extra` more bytes and returns where they start.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) -> Int {
        let start = written
        if storage.count - start < extra { grow(to: start + extra) }
        written = start + extra
        return start
    }

    @usableFromInline @inline(never)
    mutating func grow(to needed: Int) {
        let target = max(needed, storage.count * 2)
        storage.append(contentsOf: repeatElement(0, count: target - storage.count))
    }

    @inlinable @inline(__always)
    mutating func store<T: FixedWidthInteger>(_ value: T) {
        let offset = reserve(MemoryLayout<T>.size)
        storage.withUnsafeMutableBytes { $0.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self) }
    }

    /// `int`, little-endian.
    @inlinable @inline(__always)
    public mutating func writeInt32(_ value: Int32) { store(value) }

    /// A constructor id or flags word, little-endian.
    @inlinable @inline(__always)
    public mutating func writeUInt32(_ value: UInt32) { store(value) }

    /// `long`, little-endian.
    @inlinable @inline(__always)
    public mutating func writeInt64(_ value: Int64) { store(value) }

    /// `double`: IEEE-754, little-endian.
    @inlinable @inline(__always)
    public mutating func writeDouble(_ value: Double) { store(value.bitPattern) }

    /// `int128`: 16 bytes as stored.
    @inlinable @inline(__always)
    public mutating func writeInt128(_ value: TLInt128) {
        store(value.low)
        store(value.high)
    }

    /// `int256`: 32 bytes as stored.
    @inlinable
    public mutating func writeInt256(_ value: TLInt256) {
        writeInt128(value.low)
        writeInt128(value.high)
    }

    /// `Bool`: `boolTrue#997275b5` or `boolFalse#bc799737`.
    @inlinable @inline(__always)
    public mutating func writeBool(_ value: Bool) {
        writeUInt32(value ? TLConstructorIds.boolTrue : TLConstructorIds.boolFalse)
    }

    /// `bytes` (TL §Serialization of strings): a 1-byte length below 254, else `0xfe` and a 3-byte length, then
    /// the data, then zero padding to a multiple of 4. A value of `TLWriter.maximumBytesLength` + 1 bytes or more
    /// records `failure` and writes an empty value in its place.
    @inlinable
    public mutating func writeBytes(_ value: [UInt8]) {
        value.withUnsafeBytes { writeBytes($0) }
    }

    /// `bytes` from raw memory.
    @inlinable
    public mutating func writeBytes(_ raw: UnsafeRawBufferPointer) {
        var length = raw.count
        if length > Self.maximumBytesLength {
            if encodingFailure == nil { encodingFailure = .bytesTooLong(length: length) }
            length = 0
        }
        let header = length < 254 ? 1 : 4
        let total = (header + length + 3) & ~3
        let offset = reserve(total)
        storage.withUnsafeMutableBytes { out in
            // The last word first: it holds the padding (zeros; the storage may hold bytes from before a reset),
            // and the header and data written next overwrite its leading bytes.
            out.storeBytes(of: 0, toByteOffset: offset + total - 4, as: UInt32.self)
            if header == 1 {
                out[offset] = UInt8(truncatingIfNeeded: length)
            } else {
                out[offset] = 254
                out[offset + 1] = UInt8(truncatingIfNeeded: length)
                out[offset + 2] = UInt8(truncatingIfNeeded: length >> 8)
                out[offset + 3] = UInt8(truncatingIfNeeded: length >> 16)
            }
            if length > 0 {
                out.baseAddress!.advanced(by: offset + header).copyMemory(from: raw.baseAddress!, byteCount: length)
            }
        }
    }

    /// `string`: UTF-8, encoded like `bytes`.
    @inlinable
    public mutating func writeString(_ value: String) {
        // Native strings are contiguous UTF-8: write them in place, without the copy `withUTF8` needs.
        let written: Void? = value.utf8.withContiguousStorageIfAvailable { writeBytes(UnsafeRawBufferPointer($0)) }
        if written == nil {
            var value = value
            value.withUTF8 { writeBytes(UnsafeRawBufferPointer($0)) }
        }
    }

    /// The header of a boxed vector: `vector#1cb5c415` and the element count.
    @inlinable @inline(__always)
    public mutating func writeVectorHeader(count: Int) {
        writeUInt32(TLConstructorIds.vector)
        if count > Int32.max, encodingFailure == nil { encodingFailure = .vectorTooLong(count: count) }
        writeInt32(Int32(truncatingIfNeeded: count))
    }

    /// The longest `bytes`/`string` TL can encode: its length prefix has 3 bytes.
    public static let maximumBytesLength = (1 << 24) - 1

    /// Appends already-serialized bytes.
    @inlinable
    public mutating func writeRaw(_ raw: [UInt8]) {
        guard !raw.isEmpty else { return }
        let offset = reserve(raw.count)
        storage.withUnsafeMutableBytes { out in
            raw.withUnsafeBytes {
                out.baseAddress!.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
            }
        }
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
