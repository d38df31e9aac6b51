public import Buffers
import GZip

/// A bounds-checked cursor over TL bytes; every read either returns a value or throws `TLDecodingError`.
///
/// Lengths and counts read from the input are checked against the bytes that remain before anything is allocated,
/// objects may nest only `limits.maxDepth` deep, and `gzip_packed#3072cfa1` is unpacked transparently where an
/// object is expected (MTProto §Packed objects).
///
/// One reader is one top-level message: every `gzip_packed` it meets, at any depth, draws on one inflate budget of
/// `limits.maxUnpackedSize` bytes (so a vector of packed objects cannot inflate to many times the cap), and the
/// depth and the budget carry into the readers opened over inflated bytes (`init(_:continuing:)`), so a
/// message split across readers is held to the same bounds as one read in a piece.
public struct TLReader: Sendable {
    /// Bounds a reader enforces against hostile input.
    public struct Limits: Sendable {
        /// The deepest nesting of boxed objects accepted.
        public var maxDepth: Int
        /// The most bytes every `gzip_packed` in one top-level message may inflate to, together.
        public var maxUnpackedSize: Int

        public init(maxDepth: Int = 64, maxUnpackedSize: Int = 16 << 20) {
            self.maxDepth = maxDepth
            self.maxUnpackedSize = maxUnpackedSize
        }
    }

    /// The bytes being read: `bytes[offset..<end]` is what is left.
    public let bytes: [UInt8]
    /// Where the readable bytes end (`bytes.count` unless the reader was made over a range).
    public let end: Int
    /// Where the next read starts.
    public var offset: Int
    /// The limits in force.
    public let limits: Limits
    /// Objects open around the current position, counted from the top-level message.
    public var depth: Int { nesting }
    @usableFromInline var nesting: Int
    /// Bytes that `gzip_packed` payloads of this top-level message may still inflate to.
    public private(set) var inflateBudget: Int
    /// Constructors read as others where a given type is expected (`TLConstructorSubstitutions`); carried into the
    /// readers of inflated payloads. Empty (the schema exactly) unless set.
    public var substitutions = TLConstructorSubstitutions()

    /// A reader at the start of `bytes`: a new top-level message with a fresh depth and inflate budget.
    public init(_ bytes: [UInt8], limits: Limits = Limits()) {
        self.bytes = bytes
        self.end = bytes.count
        self.offset = 0
        self.limits = limits
        self.nesting = 0
        self.inflateBudget = limits.maxUnpackedSize
    }

    /// A reader over bytes found inside the message `outer` is reading (a container's child, an inflated payload):
    /// it starts at `outer`'s depth and draws on what is left of `outer`'s inflate budget. Hand the budget back with
    /// `outer.absorb(self)` when done.
    public init(_ bytes: [UInt8], continuing outer: TLReader) {
        self.bytes = bytes
        self.end = bytes.count
        self.offset = 0
        self.limits = outer.limits
        self.nesting = outer.nesting
        self.inflateBudget = outer.inflateBudget
        self.substitutions = outer.substitutions
    }

    /// A reader over `range` of `bytes` only (a result inside a received container, read without copying it out): a
    /// new top-level message. Offsets in errors count from the start of `bytes`.
    public init(_ bytes: [UInt8], range: Range<Int>, limits: Limits = Limits()) {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the bytes")
        self.bytes = bytes
        self.end = range.upperBound
        self.offset = range.lowerBound
        self.limits = limits
        self.nesting = 0
        self.inflateBudget = limits.maxUnpackedSize
    }

    /// Takes over what an inner reader (`init(_:continuing:)`) left of the inflate budget.
    public mutating func absorb(_ inner: TLReader) {
        inflateBudget = min(inflateBudget, inner.inflateBudget)
    }

    /// Enters one level of nesting (a container, a packed object) that is read by separate code; fails past
    /// `limits.maxDepth`. Pair with `leave()`.
    public mutating func enter() throws(TLDecodingError) {
        guard nesting < limits.maxDepth else { throw .nestingTooDeep(limit: limits.maxDepth) }
        nesting += 1
    }

    /// Leaves a level entered with `enter()`.
    public mutating func leave() {
        nesting -= 1
    }

    /// A reader at the start of `buffer`.
    public init(_ buffer: MemoryBuffer, limits: Limits = Limits()) {
        self.init(buffer.bytes, limits: limits)
    }

    /// Bytes not yet read.
    @inlinable
    public var remaining: Int { end - offset }

    /// Whether every byte has been read.
    @inlinable
    public var isAtEnd: Bool { offset >= end }

    @inlinable @inline(__always)
    mutating func load<T: FixedWidthInteger>(_: T.Type) throws(TLDecodingError) -> T {
        let size = MemoryLayout<T>.size
        guard end - offset >= size else { throw .truncated(offset: offset, needed: size) }
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        offset += size
        return T(littleEndian: value)
    }

    /// `int`.
    @inlinable @inline(__always)
    public mutating func readInt32() throws(TLDecodingError) -> Int32 { try load(Int32.self) }

    /// A constructor id or flags word.
    @inlinable @inline(__always)
    public mutating func readUInt32() throws(TLDecodingError) -> UInt32 { try load(UInt32.self) }

    /// `long`.
    @inlinable @inline(__always)
    public mutating func readInt64() throws(TLDecodingError) -> Int64 { try load(Int64.self) }

    /// `double`.
    @inlinable
    public mutating func readDouble() throws(TLDecodingError) -> Double {
        Double(bitPattern: try load(UInt64.self))
    }

    /// `int128`.
    @inlinable
    public mutating func readInt128() throws(TLDecodingError) -> TLInt128 {
        guard remaining >= 16 else { throw .truncated(offset: offset, needed: 16) }
        let low = try load(UInt64.self)
        return TLInt128(low: low, high: try load(UInt64.self))
    }

    /// `int256`.
    @inlinable
    public mutating func readInt256() throws(TLDecodingError) -> TLInt256 {
        guard remaining >= 32 else { throw .truncated(offset: offset, needed: 32) }
        let low = try readInt128()
        return TLInt256(low: low, high: try readInt128())
    }

    /// `Bool`.
    @inlinable @inline(__always)
    public mutating func readBool() throws(TLDecodingError) -> Bool {
        let start = offset
        switch try readUInt32() {
        case TLConstructorIds.boolTrue: return true
        case TLConstructorIds.boolFalse: return false
        case let id: throw .invalidBool(id: id, offset: start)
        }
    }

    /// The position and length of the next `bytes`/`string` value, moving past it and its padding.
    @inlinable @inline(__always)
    mutating func readBytesRange() throws(TLDecodingError) -> Range<Int> {
        let start = offset
        let first = Int(try load(UInt8.self))
        let length: Int
        let header: Int
        if first < 254 {
            length = first
            header = 1
        } else {
            guard remaining >= 3 else { throw .truncated(offset: offset, needed: 3) }
            let b0 = Int(try load(UInt8.self))
            let b1 = Int(try load(UInt8.self))
            let b2 = Int(try load(UInt8.self))
            length = b0 | b1 << 8 | b2 << 16
            header = 4
        }
        let padded = (header + length + 3) & ~3
        guard end - start >= padded else { throw .truncated(offset: start, needed: padded) }
        offset = start + padded
        return (start + header)..<(start + header + length)
    }

    /// `bytes`.
    @inlinable
    public mutating func readBytes() throws(TLDecodingError) -> [UInt8] {
        let range = try readBytesRange()
        return Array(bytes[range])
    }

    /// `string`: UTF-8, ill-formed sequences replaced by U+FFFD.
    @inlinable @inline(__always)
    public mutating func readString() throws(TLDecodingError) -> String {
        let range = try readBytesRange()
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self)
        }
    }

    /// The count of a vector whose elements take at least `minElementSize` bytes each; reads the
    /// `vector#1cb5c415` id first when `boxed`. Fails when the count is negative or the bytes left cannot hold it.
    @inlinable
    public mutating func readVectorCount(boxed: Bool = true, minElementSize: Int = 4) throws(TLDecodingError) -> Int {
        if boxed {
            let start = offset
            let id = try readUInt32()
            guard id == TLConstructorIds.vector else { throw .invalidVector(id: id, offset: start) }
        }
        let start = offset
        let count = Int(try readInt32())
        guard count >= 0, count <= remaining / max(minElementSize, 1) else {
            throw .invalidLength(offset: start, claimed: count)
        }
        return count
    }

    /// Reads a boxed object: its constructor id, then `parseBody(id, &reader)`. A `gzip_packed` wrapper is
    /// unpacked first; nesting beyond `limits.maxDepth` fails.
    @inlinable
    public mutating func readObject<T>(
        _ parseBody: (UInt32, inout TLReader) throws(TLDecodingError) -> T
    ) throws(TLDecodingError) -> T {
        guard nesting < limits.maxDepth else { throw .nestingTooDeep(limit: limits.maxDepth) }
        nesting += 1
        defer { nesting -= 1 }
        var id = try readUInt32()
        if id == TLConstructorIds.gzipPacked {
            var inner = try unpackGzip()
            let value = try inner.readObject(parseBody)
            // The packed payload is exactly one object: anything after it is an error, not slack.
            guard inner.isAtEnd else { throw .trailingBytes(count: inner.remaining, offset: offset) }
            absorb(inner)
            return value
        }
        if !substitutions.isEmpty, let replacement = substitutions.replacement(for: id, expecting: T.self) {
            id = replacement
        }
        return try parseBody(id, &self)
    }

    /// Reads the bare body of a constructor (no id) with the same depth accounting as `readObject`.
    @inlinable
    public mutating func readBare<T>(
        _ id: UInt32, _ parseBody: (UInt32, inout TLReader) throws(TLDecodingError) -> T
    ) throws(TLDecodingError) -> T {
        guard nesting < limits.maxDepth else { throw .nestingTooDeep(limit: limits.maxDepth) }
        nesting += 1
        defer { nesting -= 1 }
        return try parseBody(id, &self)
    }

    /// The error for an id that no constructor of the expected type has; the offset is the id's.
    @inlinable
    public func unknownConstructor(_ id: UInt32) -> TLDecodingError {
        .unknownConstructor(id: id, offset: offset - 4)
    }

    /// Reads `gzip_packed`'s `packed_data` (the id already read) and returns a reader over the inflated bytes, which
    /// are charged to the inflate budget.
    public mutating func unpackGzip() throws(TLDecodingError) -> TLReader {
        let packed = try readBytes()
        let unpacked: [UInt8]
        do {
            unpacked = try GZip.decompress(packed, maxOutput: inflateBudget)
        } catch {
            throw .gzip(
                "\(error) (at most \(inflateBudget) of this message's \(limits.maxUnpackedSize) bytes were left)")
        }
        inflateBudget -= unpacked.count
        return TLReader(unpacked, continuing: self)
    }
}
