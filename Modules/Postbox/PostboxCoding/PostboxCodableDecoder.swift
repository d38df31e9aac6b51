/// Maps the PostboxCoding format back onto Swift `Decodable` (Telegram's `AdaptedPostboxDecoder`).
struct PostboxCodableDecoder: Decoder {
    let node: CodableNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func decode<T: Decodable>(_ type: T.Type, from node: CodableNode, codingPath: [any CodingKey]) throws -> T {
        if T.self == [UInt8].self {
            guard case .bytes(let bytes) = node else { throw mismatch(type, codingPath) }
            return bytes as! T  // The type check above proves the cast.
        }
        return try T(from: PostboxCodableDecoder(node: node, codingPath: codingPath))
    }

    static func mismatch(_ type: Any.Type, _ path: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, .init(codingPath: path, debugDescription: "stored value is not \(type)"))
    }

    func fields() throws -> [(String, CodableNode)] {
        guard case .object(let fields) = node else { throw Self.mismatch([String: Any].self, codingPath) }
        return fields
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        var table: [String: CodableNode] = [:]
        for (key, value) in try fields() { table[key] = value }
        return KeyedDecodingContainer(Keyed<Key>(table: table, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        Unkeyed(items: try fields().map(\.1), codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(node: node, codingPath: codingPath)
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let table: [String: CodableNode]
        let codingPath: [any CodingKey]
        var allKeys: [Key] { table.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { table[key.stringValue] != nil }

        func node(_ key: Key) throws -> CodableNode {
            guard let node = table[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
            }
            return node
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            if case .nil = try node(key) { return true }
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try PostboxCodableDecoder.decode(type, from: node(key), codingPath: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try PostboxCodableDecoder(node: node(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try PostboxCodableDecoder(node: node(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            PostboxCodableDecoder(node: table["super"] ?? .nil, codingPath: codingPath)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            PostboxCodableDecoder(node: try node(key), codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [CodableNode]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [CodableNode], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        mutating func next() throws -> CodableNode {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    Any.self, .init(codingPath: codingPath, debugDescription: "unkeyed container is at its end"))
            }
            defer { currentIndex += 1 }
            return items[currentIndex]
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, case .nil = items[currentIndex] else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try PostboxCodableDecoder.decode(type, from: next(), codingPath: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try PostboxCodableDecoder(node: next(), codingPath: codingPath).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try PostboxCodableDecoder(node: next(), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            PostboxCodableDecoder(node: try next(), codingPath: codingPath)
        }
    }

    struct Single: SingleValueDecodingContainer {
        let node: CodableNode
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool {
            if case .nil = node { return true }
            return false
        }

        private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
            let value: T?
            switch node {
            case .int32(let raw): value = T(exactly: raw)
            case .int64(let raw):
                value =
                    T.self == UInt64.self || T.self == UInt.self
                    ? T(truncatingIfNeeded: UInt64(bitPattern: raw)) : T(exactly: raw)
            default: value = nil
            }
            guard let value else { throw PostboxCodableDecoder.mismatch(type, codingPath) }
            return value
        }

        func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let value) = node else { throw PostboxCodableDecoder.mismatch(type, codingPath) }
            return value
        }
        func decode(_ type: String.Type) throws -> String {
            guard case .string(let value) = node else { throw PostboxCodableDecoder.mismatch(type, codingPath) }
            return value
        }
        func decode(_ type: Double.Type) throws -> Double {
            guard case .double(let value) = node else { throw PostboxCodableDecoder.mismatch(type, codingPath) }
            return value
        }
        func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
        func decode(_ type: Int.Type) throws -> Int { try integer(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try PostboxCodableDecoder.decode(type, from: node, codingPath: codingPath)
        }
    }
}

extension PostboxDecoder {
    /// Decodes the field under `key`, written by `PostboxEncoder.encode(_:forKey:)`, as `T`; `nil` when absent.
    public func decode<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T? {
        guard let node = try node(forKey: key) else { return nil }
        return try PostboxCodableDecoder.decode(type, from: node, codingPath: [])
    }

    /// Decodes bytes written by `PostboxEncoder.encodeCodable(_:)`.
    public static func decodeCodable<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        guard let value = try PostboxDecoder(bytes: bytes).decode(type, forKey: "_") else {
            throw PostboxDecodingError.missingField("_")
        }
        return value
    }
}
