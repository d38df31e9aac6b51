/// Why TL bytes could not be decoded. Decoding never traps: truncated, hostile or unknown input is one of these.
public enum TLDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer bytes remain than the value needs.
    case truncated(offset: Int, needed: Int)
    /// A boxed value starts with an id that no constructor of the expected type has.
    case unknownConstructor(id: UInt32, offset: Int)
    /// A `Bool` is neither `boolTrue` nor `boolFalse`.
    case invalidBool(id: UInt32, offset: Int)
    /// A boxed vector does not start with `vector#1cb5c415`.
    case invalidVector(id: UInt32, offset: Int)
    /// A length or count is negative or larger than the bytes that follow could hold.
    case invalidLength(offset: Int, claimed: Int)
    /// Objects are nested deeper than the reader's limit.
    case nestingTooDeep(limit: Int)
    /// A `gzip_packed` payload is corrupt or inflates beyond the reader's limit.
    case gzip(String)
    /// A `gzip_packed` payload holds more than the one object it packs.
    case trailingBytes(count: Int, offset: Int)

    public var description: String {
        switch self {
        case let .truncated(offset, needed): return "truncated: \(needed) bytes needed at offset \(offset)"
        case let .unknownConstructor(id, offset):
            return "unknown constructor 0x\(String(id, radix: 16)) at offset \(offset)"
        case let .invalidBool(id, offset): return "invalid Bool 0x\(String(id, radix: 16)) at offset \(offset)"
        case let .invalidVector(id, offset): return "expected vector, found 0x\(String(id, radix: 16)) at \(offset)"
        case let .invalidLength(offset, claimed): return "invalid length \(claimed) at offset \(offset)"
        case let .nestingTooDeep(limit): return "objects nested deeper than \(limit)"
        case let .gzip(why): return "gzip_packed: \(why)"
        case let .trailingBytes(count, offset):
            return "\(count) bytes after the object packed in the gzip_packed at offset \(offset)"
        }
    }
}
