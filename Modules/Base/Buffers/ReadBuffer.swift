/// A cursor over bytes whose every read is bounds-checked and reports failure as a `ReadBufferError`.
///
/// Decoders of untrusted input (TL, PostboxCoding, media headers) read through this type, so a truncated or
/// hostile payload yields an error, never a trap, and never an allocation sized by an unchecked length.
public struct ReadBuffer: Sendable {
    /// All the bytes, read or not.
    public let bytes: [UInt8]
    /// Where the next read starts.
    public private(set) var offset: Int

    /// A reader positioned at the start of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
    }

    /// A reader positioned at the start of `buffer`.
    public init(_ buffer: MemoryBuffer) {
        self.init(buffer.bytes)
    }

    /// Bytes not yet read.
    public var remaining: Int { bytes.count - offset }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset == bytes.count }

    private func check(_ count: Int) throws(ReadBufferError) {
        guard count >= 0 else { throw .invalidArgument("negative count \(count)") }
        guard count <= remaining else {
            throw .outOfBounds(offset: offset, requested: count, available: remaining)
        }
    }

    /// Reads one byte.
    public mutating func readUInt8() throws(ReadBufferError) -> UInt8 {
        try check(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a little-endian integer.
    public mutating func readLittleEndian<T: FixedWidthInteger>(_: T.Type = T.self) throws(ReadBufferError) -> T {
        let size = MemoryLayout<T>.size
        try check(size)
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        offset += size
        return T(littleEndian: value)
    }

    /// Reads a big-endian integer.
    public mutating func readBigEndian<T: FixedWidthInteger>(_: T.Type = T.self) throws(ReadBufferError) -> T {
        let size = MemoryLayout<T>.size
        try check(size)
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        offset += size
        return T(bigEndian: value)
    }

    /// Reads a little-endian IEEE-754 double.
    public mutating func readDouble() throws(ReadBufferError) -> Double {
        Double(bitPattern: try readLittleEndian(UInt64.self))
    }

    /// Reads `count` bytes.
    public mutating func readBytes(_ count: Int) throws(ReadBufferError) -> [UInt8] {
        try check(count)
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Reads `count` bytes where `count` came from the input: fails with `.lengthTooLarge` when it exceeds `limit`
    /// before looking at the data, and with `.outOfBounds` when the data is shorter.
    public mutating func readBytes(claimedLength count: Int, limit: Int) throws(ReadBufferError) -> [UInt8] {
        guard count <= limit else { throw .lengthTooLarge(offset: offset, claimed: count, limit: limit) }
        return try readBytes(count)
    }

    /// Calls `body` with the next `count` bytes, without copying, and moves past them.
    public mutating func withBytes<R>(
        _ count: Int, _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        try check(count)
        defer { offset += count }
        return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[offset..<offset + count])) }
    }

    /// Moves past `count` bytes.
    public mutating func skip(_ count: Int) throws(ReadBufferError) {
        try check(count)
        offset += count
    }

    /// Moves to an absolute position inside the bytes.
    public mutating func seek(to position: Int) throws(ReadBufferError) {
        guard position >= 0, position <= bytes.count else {
            throw .outOfBounds(offset: position, requested: 0, available: bytes.count - min(position, bytes.count))
        }
        offset = position
    }

    /// The byte at the cursor, without moving; `nil` at the end.
    public func peekUInt8() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }
}
