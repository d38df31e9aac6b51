/// An immutable run of bytes with value semantics, ordered by `memcmp` (shorter prefix first).
///
/// The Swift counterpart of Telegram's `MemoryBuffer`: the unit that keys, values and wire payloads are passed
/// around in. Equality, hashing and ordering look at the bytes only.
public struct MemoryBuffer: Hashable, Comparable, Sendable {
    /// The bytes.
    public let bytes: [UInt8]

    /// Wraps `bytes` without copying.
    public init(_ bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    /// Copies the bytes of any byte sequence.
    public init<S: Sequence>(copying sequence: S) where S.Element == UInt8 {
        self.bytes = Array(sequence)
    }

    /// Number of bytes.
    public var count: Int { bytes.count }

    /// Whether there are no bytes.
    public var isEmpty: Bool { bytes.isEmpty }

    /// Calls `body` with the raw bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    /// Lower-case hexadecimal, two digits per byte.
    public var hexString: String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses hexadecimal (either case, even length); `nil` for anything else.
    public init?(hexString: String) {
        let utf8 = Array(hexString.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = Self.nibble(utf8[index]), let low = Self.nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        self.bytes = out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `memcmp` order; when one is a prefix of the other, the shorter sorts first.
    public static func < (lhs: MemoryBuffer, rhs: MemoryBuffer) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}

extension MemoryBuffer: CustomStringConvertible {
    /// `<count bytes: hex…>`, the hex cut after 32 bytes.
    public var description: String {
        let shown = count > 32 ? MemoryBuffer(Array(bytes.prefix(32))).hexString + "…" : hexString
        return "<\(count) bytes: \(shown)>"
    }
}
