/// Reads PostboxCoding fields by key (Telegram-iOS `submodules/Postbox/Sources/Coding.swift`).
///
/// A key is found by scanning forward from the last read field and wrapping around once, so reading fields in the
/// order they were written costs O(1) each. The root decoder validates the whole byte structure when it is made
/// (lengths, counts, type tags, nesting depth), so later lookups never read out of bounds and no count from the
/// input sizes an allocation before it has been checked against the bytes that hold it.
public final class PostboxDecoder {
    /// The deepest nesting of objects accepted.
    public static let maximumDepth = 64

    let bytes: [UInt8]
    let start: Int
    let end: Int
    private var offset: Int

    /// A decoder over the field list `bytes`; throws when the structure is damaged.
    public convenience init(bytes: [UInt8]) throws(PostboxDecodingError) {
        try PostboxDecoder.validateFields(bytes, from: 0, to: bytes.count, depth: 0)
        self.init(validated: bytes, start: 0, end: bytes.count)
    }

    init(validated bytes: [UInt8], start: Int, end: Int) {
        self.bytes = bytes
        self.start = start
        self.end = end
        self.offset = start
    }

    // MARK: Reading primitives (bounds already validated)

    @inline(__always)
    func load<T: FixedWidthInteger>(_ position: Int, _: T.Type) -> T {
        bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: position, as: T.self)) }
    }

    // MARK: Key lookup

    /// Skips the value of `type` at `position`; `nil` when the value does not fit before `limit`.
    static func skipValue(
        _ bytes: [UInt8], _ type: PostboxValueType, at position: Int, limit: Int
    ) -> Int? {
        func length(_ at: Int) -> Int? {
            guard at + 4 <= limit else { return nil }
            let value = Int(
                bytes.withUnsafeBytes { Int32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: Int32.self)) })
            return value >= 0 ? value : nil
        }
        var p = position
        switch type {
        case .int32: p += 4
        case .int64, .double: p += 8
        case .bool: p += 1
        case .nil: break
        case .string, .bytes:
            guard let count = length(p) else { return nil }
            p += 4 + count
        case .object:
            guard let count = length(p + 4) else { return nil }
            p += 8 + count
        case .int32Array, .int64Array:
            guard let count = length(p) else { return nil }
            p += 4 + count * (type == .int32Array ? 4 : 8)
        case .objectArray, .objectDictionary:
            guard let count = length(p) else { return nil }
            p += 4
            let objects = type == .objectArray ? count : count * 2
            for _ in 0..<objects {
                guard let bodyLength = length(p + 4) else { return nil }
                p += 8 + bodyLength
                if p > limit { return nil }
            }
        case .stringArray, .bytesArray:
            guard let count = length(p) else { return nil }
            p += 4
            for _ in 0..<count {
                guard let itemLength = length(p) else { return nil }
                p += 4 + itemLength
                if p > limit { return nil }
            }
        }
        return p <= limit ? p : nil
    }

    private func keyMatches(_ keyStart: Int, _ keyLength: Int, _ key: [UInt8]) -> Bool {
        guard keyLength == key.count else { return false }
        for index in 0..<keyLength where bytes[keyStart + index] != key[index] { return false }
        return true
    }

    /// Scans `[from, to)` for `key`; returns its type and value offset and moves `offset` past the value.
    private func scan(_ key: [UInt8], from: Int, to: Int) -> (PostboxValueType, Int)? {
        var p = from
        while p < to {
            let keyLength = Int(bytes[p])
            let keyStart = p + 1
            guard keyStart + keyLength < end, let type = PostboxValueType(rawValue: bytes[keyStart + keyLength])
            else { return nil }
            let valueStart = keyStart + keyLength + 1
            guard let next = PostboxDecoder.skipValue(bytes, type, at: valueStart, limit: end) else { return nil }
            if keyMatches(keyStart, keyLength, key) {
                offset = next
                return (type, valueStart)
            }
            p = next
        }
        return nil
    }

    /// The type and value offset of `key`, scanning from the last position and wrapping around once.
    func position(of key: String) -> (PostboxValueType, Int)? {
        let utf8 = Array(key.utf8.prefix(127))
        if let found = scan(utf8, from: offset, to: end) { return found }
        return scan(utf8, from: start, to: offset)
    }

    /// Whether `key` is present (with any type, including nil).
    public func containsKey(_ key: String) -> Bool {
        position(of: key) != nil
    }

    func value(_ key: String, _ type: PostboxValueType) -> Int? {
        guard let (found, at) = position(of: key), found == type else { return nil }
        return at
    }

    func string(at position: Int) -> String {
        let count = Int(load(position, Int32.self))
        return String(decoding: bytes[position + 4..<position + 4 + count], as: UTF8.self)
    }

    func byteArray(at position: Int) -> [UInt8] {
        let count = Int(load(position, Int32.self))
        return Array(bytes[position + 4..<position + 4 + count])
    }
}
