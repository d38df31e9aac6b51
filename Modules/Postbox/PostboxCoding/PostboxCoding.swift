/// A type stored in Postbox's binary object format (Telegram-iOS `submodules/Postbox/Sources/Coding.swift`): it
/// writes its fields by key and reads them back by key.
///
/// `init(decoder:)` throws when a required field is missing or has the wrong type; optional fields read `nil`.
public protocol PostboxCoding {
    /// Reads the fields written by `encode(_:)`.
    init(decoder: PostboxDecoder) throws(PostboxDecodingError)
    /// Writes the fields.
    func encode(_ encoder: PostboxEncoder)
}

/// The 1-byte type tag after each field key (Telegram-iOS `submodules/Postbox/Sources/Coding.swift`).
public enum PostboxValueType: UInt8, Sendable, CaseIterable {
    case int32 = 0
    case int64 = 1
    case bool = 2
    case double = 3
    case string = 4
    case object = 5
    case int32Array = 6
    case int64Array = 7
    case objectArray = 8
    case objectDictionary = 9
    case bytes = 10
    case `nil` = 11
    case stringArray = 12
    case bytesArray = 13
}

/// Why bytes could not be decoded. Corrupt, truncated or hostile input yields one of these, never a trap.
public enum PostboxDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes end inside a field.
    case truncated(offset: Int)
    /// A field has a type tag outside 0…13.
    case unknownValueType(offset: Int, tag: UInt8)
    /// A length or count is negative or larger than the bytes that remain.
    case invalidLength(offset: Int, claimed: Int64)
    /// Objects nest deeper than `PostboxDecoder.maximumDepth`.
    case tooDeep
    /// No decoder is registered for an object's type hash.
    case unknownType(hash: Int32)
    /// A required field is absent.
    case missingField(String)
    /// A field holds a different type than asked, or an object of another class.
    case typeMismatch(key: String, expected: String)

    public var description: String {
        switch self {
        case .truncated(let offset): return "truncated at offset \(offset)"
        case .unknownValueType(let offset, let tag): return "unknown value type \(tag) at offset \(offset)"
        case .invalidLength(let offset, let claimed): return "invalid length \(claimed) at offset \(offset)"
        case .tooDeep: return "objects nested too deep"
        case .unknownType(let hash): return "no type registered for hash \(hash)"
        case .missingField(let key): return "missing field '\(key)'"
        case .typeMismatch(let key, let expected): return "field '\(key)' is not \(expected)"
        }
    }
}
