/// Structural validation of untrusted bytes, done once by the root decoder.
extension PostboxDecoder {
    static func validateFields(_ bytes: [UInt8], from: Int, to end: Int, depth: Int) throws(PostboxDecodingError) {
        guard depth <= maximumDepth else { throw .tooDeep }
        var p = from
        while p < end {
            let keyLength = Int(bytes[p])
            guard keyLength <= 127 else { throw .invalidLength(offset: p, claimed: Int64(keyLength)) }
            let tagOffset = p + 1 + keyLength
            guard tagOffset < end else { throw .truncated(offset: p) }
            guard let type = PostboxValueType(rawValue: bytes[tagOffset]) else {
                throw .unknownValueType(offset: tagOffset, tag: bytes[tagOffset])
            }
            p = try validateValue(bytes, type, at: tagOffset + 1, end: end, depth: depth)
        }
    }

    private static func readLength(
        _ bytes: [UInt8], _ at: Int, _ end: Int, unit: Int
    ) throws(PostboxDecodingError)
        -> Int
    {
        guard at + 4 <= end else { throw .truncated(offset: at) }
        let value = Int64(
            bytes.withUnsafeBytes { Int32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: Int32.self)) })
        // A count is plausible only if its smallest encoding fits in the bytes that remain.
        guard value >= 0, value * Int64(unit) <= Int64(end - at - 4) else {
            throw .invalidLength(offset: at, claimed: value)
        }
        return Int(value)
    }

    private static func validateObject(
        _ bytes: [UInt8], at p: Int, end: Int, depth: Int
    ) throws(PostboxDecodingError)
        -> Int
    {
        guard p + 8 <= end else { throw .truncated(offset: p) }
        let length = try readLength(bytes, p + 4, end, unit: 1)
        try validateFields(bytes, from: p + 8, to: p + 8 + length, depth: depth + 1)
        return p + 8 + length
    }

    static func validateValue(
        _ bytes: [UInt8], _ type: PostboxValueType, at start: Int, end: Int, depth: Int
    ) throws(PostboxDecodingError) -> Int {
        var p = start
        func need(_ count: Int) throws(PostboxDecodingError) {
            guard p + count <= end else { throw .truncated(offset: p) }
            p += count
        }
        switch type {
        case .int32: try need(4)
        case .int64, .double: try need(8)
        case .bool: try need(1)
        case .nil: break
        case .string, .bytes:
            let count = try readLength(bytes, p, end, unit: 1)
            p += 4 + count
        case .object:
            p = try validateObject(bytes, at: p, end: end, depth: depth)
        case .int32Array, .int64Array:
            let unit = type == .int32Array ? 4 : 8
            let count = try readLength(bytes, p, end, unit: unit)
            p += 4 + count * unit
        case .objectArray, .objectDictionary:
            let count = try readLength(bytes, p, end, unit: type == .objectArray ? 8 : 16)
            p += 4
            for _ in 0..<(type == .objectArray ? count : count * 2) {
                p = try validateObject(bytes, at: p, end: end, depth: depth)
            }
        case .stringArray, .bytesArray:
            let count = try readLength(bytes, p, end, unit: 4)
            p += 4
            for _ in 0..<count {
                let itemLength = try readLength(bytes, p, end, unit: 1)
                p += 4 + itemLength
            }
        }
        return p
    }
}
