/// The value tree the Codable adapter builds before writing it in the PostboxCoding format, and reads back.
///
/// Keyed containers become objects (type hash 0); unkeyed containers become objects whose keys are "0", "1", …
indirect enum CodableNode {
    case int32(Int32)
    case int64(Int64)
    case bool(Bool)
    case double(Double)
    case string(String)
    case bytes([UInt8])
    case `nil`
    case object([(String, CodableNode)])

    var valueType: PostboxValueType {
        switch self {
        case .int32: return .int32
        case .int64: return .int64
        case .bool: return .bool
        case .double: return .double
        case .string: return .string
        case .bytes: return .bytes
        case .nil: return .nil
        case .object: return .object
        }
    }
}

extension PostboxDecoder {
    /// The field under `key` as a node (scalars, bytes and objects; typed arrays are not Codable targets).
    func node(forKey key: String) throws(PostboxDecodingError) -> CodableNode? {
        guard let (type, at) = position(of: key) else { return nil }
        return try node(type, at: at, key: key)
    }

    private func node(_ type: PostboxValueType, at: Int, key: String) throws(PostboxDecodingError) -> CodableNode {
        switch type {
        case .int32: return .int32(load(at, Int32.self))
        case .int64: return .int64(load(at, Int64.self))
        case .bool: return .bool(bytes[at] != 0)
        case .double: return .double(Double(bitPattern: load(at, UInt64.self)))
        case .string: return .string(string(at: at))
        case .bytes: return .bytes(byteArray(at: at))
        case .nil: return .nil
        case .object:
            let length = Int(load(at + 4, Int32.self))
            return try PostboxDecoder(validated: bytes, start: at + 8, end: at + 8 + length).allFields()
        default:
            throw .typeMismatch(key: key, expected: "a Codable value")
        }
    }

    /// Every field of this decoder's object, in stored order.
    func allFields() throws(PostboxDecodingError) -> CodableNode {
        var fields: [(String, CodableNode)] = []
        var p = start
        while p < end {
            let keyLength = Int(bytes[p])
            let key = String(decoding: bytes[p + 1..<p + 1 + keyLength], as: UTF8.self)
            let tagOffset = p + 1 + keyLength
            guard let type = PostboxValueType(rawValue: bytes[tagOffset]),
                let next = PostboxDecoder.skipValue(bytes, type, at: tagOffset + 1, limit: end)
            else { throw .truncated(offset: p) }
            fields.append((key, try node(type, at: tagOffset + 1, key: key)))
            p = next
        }
        return .object(fields)
    }
}
