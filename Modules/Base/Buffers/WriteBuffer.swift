/// A growable byte buffer that integers and byte runs are appended to.
///
/// Integers are written little-endian unless a `bigEndian` method is used (Postbox keys are big-endian so that
/// `memcmp` order equals numeric order; TL and PostboxCoding are little-endian).
public struct WriteBuffer: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// An empty buffer with room for `capacity` bytes before it grows.
    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Number of bytes written.
    public var count: Int { bytes.count }

    /// Appends one byte.
    public mutating func write(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends a run of bytes.
    public mutating func write<S: Sequence>(contentsOf sequence: S) where S.Element == UInt8 {
        bytes.append(contentsOf: sequence)
    }

    /// Appends the bytes of a buffer.
    public mutating func write(_ buffer: MemoryBuffer) {
        bytes.append(contentsOf: buffer.bytes)
    }

    /// Appends raw memory.
    public mutating func write(_ raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
    }

    /// Appends `count` copies of `byte` (padding).
    public mutating func write(repeating byte: UInt8, count: Int) {
        bytes.append(contentsOf: repeatElement(byte, count: count))
    }

    /// Appends an integer in little-endian byte order.
    public mutating func writeLittleEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends an integer in big-endian byte order.
    public mutating func writeBigEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends an IEEE-754 double, little-endian.
    public mutating func writeDouble(_ value: Double) {
        writeLittleEndian(value.bitPattern)
    }

    /// Overwrites already-written bytes at `offset` (for length prefixes filled in afterwards).
    /// Returns `false`, changing nothing, when the range is not inside what was written.
    @discardableResult
    public mutating func overwrite<T: FixedWidthInteger>(littleEndian value: T, at offset: Int) -> Bool {
        let size = MemoryLayout<T>.size
        guard offset >= 0, offset <= bytes.count - size else { return false }
        withUnsafeBytes(of: value.littleEndian) { raw in
            for i in 0..<size { bytes[offset + i] = raw[i] }
        }
        return true
    }

    /// Forgets what was written, keeping the capacity.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// The bytes written, as an immutable buffer.
    public func makeMemoryBuffer() -> MemoryBuffer {
        MemoryBuffer(bytes)
    }
}
