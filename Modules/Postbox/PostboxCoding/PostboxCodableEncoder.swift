/// Maps Swift `Encodable` onto the PostboxCoding format (Telegram's `AdaptedPostboxEncoder`).
final class PostboxCodableEncoder: Encoder {
    /// A container's storage, shared by reference so nested containers fill in after being handed out.
    final class Box {
        var node: CodableNode = .object([])
        var fields: [(String, Box)] = []
        var isContainer = false

        func resolve() -> CodableNode {
            isContainer ? .object(fields.map { ($0.0, $0.1.resolve()) }) : node
        }
    }

    let box: Box
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(box: Box, codingPath: [any CodingKey]) {
        self.box = box
        self.codingPath = codingPath
    }

    static func encodeNode<T: Encodable>(_ value: T) throws -> CodableNode {
        let box = Box()
        try encode(value, into: box, codingPath: [])
        return box.resolve()
    }

    static func encode<T: Encodable>(_ value: T, into box: Box, codingPath: [any CodingKey]) throws {
        // Check the static type, not a cast: an empty array of any element type casts to `[UInt8]`.
        if T.self == [UInt8].self, let bytes = value as? [UInt8] {
            box.node = .bytes(bytes)
        } else {
            try value.encode(to: PostboxCodableEncoder(box: box, codingPath: codingPath))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.isContainer = true
        return KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        box.isContainer = true
        return Unkeyed(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    func child(_ key: String) -> Box {
        let child = Box()
        box.fields.append((key, child))
        return child
    }

    struct IndexKey: CodingKey {
        let intValue: Int?
        let stringValue: String
        init(_ index: Int) { intValue = index; stringValue = String(index) }
        init?(stringValue: String) { self.stringValue = stringValue; intValue = Int(stringValue) }
        init?(intValue: Int) { self.init(intValue) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: PostboxCodableEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil(forKey key: Key) throws { encoder.child(key.stringValue).node = .nil }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try PostboxCodableEncoder.encode(
                value, into: encoder.child(key.stringValue), codingPath: codingPath + [key])
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        )
            -> KeyedEncodingContainer<NestedKey>
        {
            PostboxCodableEncoder(box: encoder.child(key.stringValue), codingPath: codingPath + [key])
                .container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            PostboxCodableEncoder(box: encoder.child(key.stringValue), codingPath: codingPath + [key])
                .unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            PostboxCodableEncoder(box: encoder.child("super"), codingPath: codingPath)
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            PostboxCodableEncoder(box: encoder.child(key.stringValue), codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: PostboxCodableEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int { encoder.box.fields.count }

        mutating func encodeNil() throws { encoder.child(String(count)).node = .nil }
        mutating func encode<T: Encodable>(_ value: T) throws {
            let key = IndexKey(count)
            try PostboxCodableEncoder.encode(
                value, into: encoder.child(key.stringValue), codingPath: codingPath + [key])
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        )
            -> KeyedEncodingContainer<NestedKey>
        {
            PostboxCodableEncoder(box: encoder.child(String(count)), codingPath: codingPath).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            PostboxCodableEncoder(box: encoder.child(String(count)), codingPath: codingPath).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            PostboxCodableEncoder(box: encoder.child(String(count)), codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: PostboxCodableEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws { encoder.box.node = .nil }
        mutating func encode(_ value: Bool) throws { encoder.box.node = .bool(value) }
        mutating func encode(_ value: String) throws { encoder.box.node = .string(value) }
        mutating func encode(_ value: Double) throws { encoder.box.node = .double(value) }
        mutating func encode(_ value: Float) throws { encoder.box.node = .double(Double(value)) }
        mutating func encode(_ value: Int32) throws { encoder.box.node = .int32(value) }
        mutating func encode(_ value: Int64) throws { encoder.box.node = .int64(value) }
        mutating func encode(_ value: Int) throws { encoder.box.node = .int64(Int64(value)) }
        mutating func encode(_ value: Int8) throws { encoder.box.node = .int32(Int32(value)) }
        mutating func encode(_ value: Int16) throws { encoder.box.node = .int32(Int32(value)) }
        mutating func encode(_ value: UInt8) throws { encoder.box.node = .int32(Int32(value)) }
        mutating func encode(_ value: UInt16) throws { encoder.box.node = .int32(Int32(value)) }
        mutating func encode(_ value: UInt32) throws { encoder.box.node = .int64(Int64(value)) }
        mutating func encode(_ value: UInt64) throws { encoder.box.node = .int64(Int64(bitPattern: value)) }
        mutating func encode(_ value: UInt) throws { encoder.box.node = .int64(Int64(bitPattern: UInt64(value))) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try PostboxCodableEncoder.encode(value, into: encoder.box, codingPath: codingPath)
        }
    }
}
