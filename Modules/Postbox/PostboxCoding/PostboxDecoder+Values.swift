public import Buffers

/// Typed field readers. `decodeOptional…` returns `nil` for a missing key, an explicit nil or another type;
/// `decode…(forKey:)` throws for those instead.
extension PostboxDecoder {
    public func decodeOptionalInt32ForKey(_ key: String) -> Int32? {
        value(key, .int32).map { load($0, Int32.self) }
    }

    public func decodeOptionalInt64ForKey(_ key: String) -> Int64? {
        value(key, .int64).map { load($0, Int64.self) }
    }

    public func decodeOptionalBoolForKey(_ key: String) -> Bool? {
        value(key, .bool).map { bytes[$0] != 0 }
    }

    public func decodeOptionalDoubleForKey(_ key: String) -> Double? {
        value(key, .double).map { Double(bitPattern: load($0, UInt64.self)) }
    }

    public func decodeOptionalStringForKey(_ key: String) -> String? {
        value(key, .string).map(string(at:))
    }

    public func decodeOptionalBytesForKey(_ key: String) -> [UInt8]? {
        value(key, .bytes).map(byteArray(at:))
    }

    public func decodeInt32ForKey(_ key: String, orElse fallback: Int32) -> Int32 {
        decodeOptionalInt32ForKey(key) ?? fallback
    }

    public func decodeInt64ForKey(_ key: String, orElse fallback: Int64) -> Int64 {
        decodeOptionalInt64ForKey(key) ?? fallback
    }

    public func decodeBoolForKey(_ key: String, orElse fallback: Bool) -> Bool {
        decodeOptionalBoolForKey(key) ?? fallback
    }

    public func decodeStringForKey(_ key: String, orElse fallback: String) -> String {
        decodeOptionalStringForKey(key) ?? fallback
    }

    private func require<T>(_ value: T?, _ key: String, _ type: String) throws(PostboxDecodingError) -> T {
        if let value { return value }
        throw containsKey(key) ? .typeMismatch(key: key, expected: type) : .missingField(key)
    }

    public func decodeInt32(forKey key: String) throws(PostboxDecodingError) -> Int32 {
        try require(decodeOptionalInt32ForKey(key), key, "Int32")
    }

    public func decodeInt64(forKey key: String) throws(PostboxDecodingError) -> Int64 {
        try require(decodeOptionalInt64ForKey(key), key, "Int64")
    }

    public func decodeBool(forKey key: String) throws(PostboxDecodingError) -> Bool {
        try require(decodeOptionalBoolForKey(key), key, "Bool")
    }

    public func decodeDouble(forKey key: String) throws(PostboxDecodingError) -> Double {
        try require(decodeOptionalDoubleForKey(key), key, "Double")
    }

    public func decodeString(forKey key: String) throws(PostboxDecodingError) -> String {
        try require(decodeOptionalStringForKey(key), key, "String")
    }

    public func decodeBytes(forKey key: String) throws(PostboxDecodingError) -> [UInt8] {
        try require(decodeOptionalBytesForKey(key), key, "Bytes")
    }

    public func decodeInt32ArrayForKey(_ key: String) -> [Int32] {
        guard let at = value(key, .int32Array) else { return [] }
        let count = Int(load(at, Int32.self))
        return (0..<count).map { load(at + 4 + $0 * 4, Int32.self) }
    }

    public func decodeInt64ArrayForKey(_ key: String) -> [Int64] {
        guard let at = value(key, .int64Array) else { return [] }
        let count = Int(load(at, Int32.self))
        return (0..<count).map { load(at + 4 + $0 * 8, Int64.self) }
    }

    public func decodeStringArrayForKey(_ key: String) -> [String] {
        guard let at = value(key, .stringArray) else { return [] }
        return lengthPrefixedItems(at).map(string(at:))
    }

    public func decodeBytesArrayForKey(_ key: String) -> [[UInt8]] {
        guard let at = value(key, .bytesArray) else { return [] }
        return lengthPrefixedItems(at).map(byteArray(at:))
    }

    private func lengthPrefixedItems(_ at: Int) -> [Int] {
        let count = Int(load(at, Int32.self))
        var positions: [Int] = []
        positions.reserveCapacity(count)
        var p = at + 4
        for _ in 0..<count {
            positions.append(p)
            p += 4 + Int(load(p, Int32.self))
        }
        return positions
    }

    // MARK: Objects

    /// Decodes the object whose header (type hash, length) starts at `p`; returns it and the offset after it.
    func object(at p: Int) throws(PostboxDecodingError) -> (PostboxCoding, Int) {
        let hash = load(p, Int32.self)
        let length = Int(load(p + 4, Int32.self))
        let nested = PostboxDecoder(validated: bytes, start: p + 8, end: p + 8 + length)
        guard let make = PostboxTypeRegistry.shared.decoder(for: hash) else { throw .unknownType(hash: hash) }
        do {
            return (try make(nested), p + 8 + length)
        } catch let error as PostboxDecodingError {
            throw error
        } catch {
            throw .typeMismatch(key: "_", expected: "a decodable object (\(error))")
        }
    }

    /// The registered object under `key`, or `nil` when absent or nil.
    public func decodeObjectForKey(_ key: String) throws(PostboxDecodingError) -> PostboxCoding? {
        guard let at = value(key, .object) else { return nil }
        return try object(at: at).0
    }

    /// The object under `key` as `T` (`nil` when absent); throws when it is of another class.
    public func decodeObjectForKey<T: PostboxCoding>(_ key: String, as _: T.Type) throws(PostboxDecodingError) -> T? {
        guard let at = value(key, .object) else { return nil }
        let hash = load(at, Int32.self)
        if hash == PostboxTypeRegistry.typeHash(of: T.self) {
            let length = Int(load(at + 4, Int32.self))
            return try T(decoder: PostboxDecoder(validated: bytes, start: at + 8, end: at + 8 + length))
        }
        guard let object = try object(at: at).0 as? T else { throw .typeMismatch(key: key, expected: "\(T.self)") }
        return object
    }

    /// The root object (key `"_"`) decoded through the type registry.
    public func decodeRootObject() throws(PostboxDecodingError) -> PostboxCoding? {
        try decodeObjectForKey("_")
    }

    /// The objects of an object array, each decoded through the type registry.
    public func decodeObjectArrayForKey(_ key: String) throws(PostboxDecodingError) -> [PostboxCoding] {
        guard let at = value(key, .objectArray) else { return [] }
        let count = Int(load(at, Int32.self))
        var result: [PostboxCoding] = []
        var p = at + 4
        for _ in 0..<count {
            let (object, next) = try object(at: p)
            result.append(object)
            p = next
        }
        return result
    }

    /// The objects of an object array as `T`; throws when one is of another class.
    public func decodeObjectArrayForKey<T: PostboxCoding>(
        _ key: String, as _: T.Type
    ) throws(PostboxDecodingError)
        -> [T]
    {
        var result: [T] = []
        for object in try decodeObjectArrayForKey(key) {
            guard let typed = object as? T else { throw .typeMismatch(key: key, expected: "[\(T.self)]") }
            result.append(typed)
        }
        return result
    }

    /// The key/value pairs of an object dictionary, in stored order.
    public func decodeObjectDictionaryForKey(
        _ key: String
    ) throws(PostboxDecodingError)
        -> [(key: PostboxCoding, value: PostboxCoding)]
    {
        guard let at = value(key, .objectDictionary) else { return [] }
        let count = Int(load(at, Int32.self))
        var result: [(key: PostboxCoding, value: PostboxCoding)] = []
        var p = at + 4
        for _ in 0..<count {
            let (entryKey, afterKey) = try object(at: p)
            let (entryValue, afterValue) = try object(at: afterKey)
            result.append((entryKey, entryValue))
            p = afterValue
        }
        return result
    }

    /// Decodes a root object from stored bytes; throws for damaged bytes or an unregistered type.
    public static func decodeRoot(_ bytes: [UInt8]) throws(PostboxDecodingError) -> PostboxCoding? {
        try PostboxDecoder(bytes: bytes).decodeRootObject()
    }

    /// The bytes under `key` as a memory buffer.
    public func decodeMemoryBufferForKey(_ key: String) -> MemoryBuffer? {
        decodeOptionalBytesForKey(key).map { MemoryBuffer($0) }
    }
}
