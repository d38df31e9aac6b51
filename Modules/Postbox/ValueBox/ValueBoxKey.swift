/// A binary table key: integers written big-endian, ordered and compared byte by byte (`memcmp`), so the order of
/// keys is SQLite's BLOB order (Telegram-iOS Postbox `ValueBoxKey`).
///
/// Signed integers are stored in two's complement: a negative value sorts after every non-negative one.
public struct ValueBoxKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The key's bytes.
    public private(set) var bytes: [UInt8]

    /// A key of `length` zero bytes.
    public init(length: Int) {
        bytes = [UInt8](repeating: 0, count: length)
    }

    /// A key holding `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A key holding the UTF-8 bytes of `string`.
    public init(_ string: String) {
        bytes = Array(string.utf8)
    }

    /// An 8-byte key for an int64 table.
    public init(int64 value: Int64) {
        self.init(length: 8)
        setInt64(0, value: value)
    }

    /// Number of bytes.
    public var length: Int { bytes.count }

    /// Stores `value` big-endian at `offset` with one bounds check and one unaligned store (keys are built for
    /// every row written, so the per-byte loop this replaced showed in profiles).
    private mutating func setBigEndian<T: FixedWidthInteger>(_ offset: Int, _ value: T) {
        precondition(offset >= 0 && offset <= bytes.count - MemoryLayout<T>.size, "ValueBoxKey offset out of range")
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: value.bigEndian, toByteOffset: offset, as: T.self) }
    }

    private func getBigEndian<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
        precondition(offset >= 0 && offset <= bytes.count - MemoryLayout<T>.size, "ValueBoxKey offset out of range")
        return T(bigEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) })
    }

    public mutating func setInt8(_ offset: Int, value: Int8) { bytes[offset] = UInt8(bitPattern: value) }
    public mutating func setUInt8(_ offset: Int, value: UInt8) { bytes[offset] = value }
    public mutating func setUInt16(_ offset: Int, value: UInt16) { setBigEndian(offset, value) }
    public mutating func setInt32(_ offset: Int, value: Int32) { setBigEndian(offset, value) }
    public mutating func setUInt32(_ offset: Int, value: UInt32) { setBigEndian(offset, value) }
    public mutating func setInt64(_ offset: Int, value: Int64) { setBigEndian(offset, value) }

    public func getInt8(_ offset: Int) -> Int8 { Int8(bitPattern: bytes[offset]) }
    public func getUInt8(_ offset: Int) -> UInt8 { bytes[offset] }
    public func getUInt16(_ offset: Int) -> UInt16 { getBigEndian(offset, UInt16.self) }
    public func getInt32(_ offset: Int) -> Int32 { getBigEndian(offset, Int32.self) }
    public func getUInt32(_ offset: Int) -> UInt32 { getBigEndian(offset, UInt32.self) }
    public func getInt64(_ offset: Int) -> Int64 { getBigEndian(offset, Int64.self) }

    /// The smallest key greater than every key that has `self` as a prefix (the end bound of a prefix range).
    ///
    /// Increments the last byte that is not 0xff and drops the bytes after it; a key of all 0xff gets a 0xff byte
    /// appended instead (greater than itself).
    public var successor: ValueBoxKey {
        var result = bytes
        while let last = result.last {
            if last == 0xff {
                result.removeLast()
            } else {
                result[result.count - 1] = last + 1
                return ValueBoxKey(result)
            }
        }
        return ValueBoxKey(bytes + [0xff])
    }

    /// A key just below `self` in byte order among keys of the same length (the start bound of a descending range).
    public var predecessor: ValueBoxKey {
        var result = bytes
        var index = result.count - 1
        while index >= 0 {
            if result[index] != 0 {
                result[index] -= 1
                return ValueBoxKey(result)
            }
            result[index] = 0xff
            index -= 1
        }
        return ValueBoxKey([])
    }

    /// The first `length` bytes.
    public func prefix(_ length: Int) -> ValueBoxKey {
        ValueBoxKey(Array(bytes.prefix(length)))
    }

    /// Whether `self` starts with `other`'s bytes.
    public func isPrefix(of other: ValueBoxKey) -> Bool {
        other.bytes.count >= bytes.count && other.bytes.starts(with: bytes)
    }

    /// The two keys' bytes one after the other.
    public static func + (lhs: ValueBoxKey, rhs: ValueBoxKey) -> ValueBoxKey {
        ValueBoxKey(lhs.bytes + rhs.bytes)
    }

    /// `memcmp` order, shorter first on a common prefix.
    public static func < (lhs: ValueBoxKey, rhs: ValueBoxKey) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    public var description: String {
        bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
        }.joined()
    }
}
