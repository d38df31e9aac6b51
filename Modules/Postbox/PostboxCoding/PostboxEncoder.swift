public import Buffers

/// Writes PostboxCoding fields (Telegram-iOS `submodules/Postbox/Sources/Coding.swift`): key (Int8 length +
/// UTF-8), a type tag, the value; numbers in little-endian (host) order.
public final class PostboxEncoder {
    private var buffer: WriteBuffer

    /// An empty encoder.
    public init() {
        buffer = WriteBuffer(capacity: 128)
    }

    /// The bytes written so far.
    public func makeData() -> [UInt8] { buffer.bytes }

    /// The bytes written so far, as a memory buffer.
    public func makeMemoryBuffer() -> MemoryBuffer { buffer.makeMemoryBuffer() }

    /// Forgets everything written, keeping the capacity.
    public func reset() { buffer.reset() }

    private func writeKey(_ key: String, _ type: PostboxValueType) {
        // The key's UTF-8 in place (keys are written for every field of every object: no array for each).
        var key = key
        key.withUTF8 { utf8 in
            let length = min(utf8.count, 127)
            buffer.write(UInt8(length))
            buffer.write(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[..<length])))
        }
        buffer.write(type.rawValue)
    }

    private func writeLength(_ count: Int) {
        buffer.writeLittleEndian(Int32(truncatingIfNeeded: count))
    }

    private func writeBytes(_ bytes: [UInt8]) {
        writeLength(bytes.count)
        buffer.write(contentsOf: bytes)
    }

    private func writeString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            writeLength(utf8.count)
            buffer.write(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Writes `type hash ‖ length ‖ fields` of `object`.
    private func writeObjectBody(_ object: PostboxCoding) {
        buffer.writeLittleEndian(PostboxTypeRegistry.typeHash(of: type(of: object)))
        let lengthOffset = buffer.count
        writeLength(0)
        let start = buffer.count
        object.encode(self)
        _ = buffer.overwrite(littleEndian: Int32(truncatingIfNeeded: buffer.count - start), at: lengthOffset)
    }

    public func encodeInt32(_ value: Int32, forKey key: String) {
        writeKey(key, .int32)
        buffer.writeLittleEndian(value)
    }

    public func encodeInt64(_ value: Int64, forKey key: String) {
        writeKey(key, .int64)
        buffer.writeLittleEndian(value)
    }

    public func encodeBool(_ value: Bool, forKey key: String) {
        writeKey(key, .bool)
        buffer.write(value ? 1 : 0)
    }

    public func encodeDouble(_ value: Double, forKey key: String) {
        writeKey(key, .double)
        buffer.writeDouble(value)
    }

    public func encodeString(_ value: String, forKey key: String) {
        writeKey(key, .string)
        writeString(value)
    }

    /// Writes an explicit nil: the key is present, and decoding it yields `nil`.
    public func encodeNil(forKey key: String) {
        writeKey(key, .nil)
    }

    public func encodeBytes(_ value: [UInt8], forKey key: String) {
        writeKey(key, .bytes)
        writeBytes(value)
    }

    public func encodeBytes(_ value: MemoryBuffer, forKey key: String) {
        encodeBytes(value.bytes, forKey: key)
    }

    /// Writes a nested object with its registered type hash.
    public func encodeObject(_ value: PostboxCoding, forKey key: String) {
        writeKey(key, .object)
        writeObjectBody(value)
    }

    /// Writes the root object under the key `"_"`.
    public func encodeRootObject(_ value: PostboxCoding) {
        encodeObject(value, forKey: "_")
    }

    public func encodeInt32Array(_ value: [Int32], forKey key: String) {
        writeKey(key, .int32Array)
        writeLength(value.count)
        for element in value { buffer.writeLittleEndian(element) }
    }

    public func encodeInt64Array(_ value: [Int64], forKey key: String) {
        writeKey(key, .int64Array)
        writeLength(value.count)
        for element in value { buffer.writeLittleEndian(element) }
    }

    public func encodeObjectArray(_ value: [PostboxCoding], forKey key: String) {
        writeKey(key, .objectArray)
        writeLength(value.count)
        for element in value { writeObjectBody(element) }
    }

    /// Writes key/value object pairs in the given order.
    public func encodeObjectDictionary(_ value: [(key: PostboxCoding, value: PostboxCoding)], forKey key: String) {
        writeKey(key, .objectDictionary)
        writeLength(value.count)
        for (entryKey, entryValue) in value {
            writeObjectBody(entryKey)
            writeObjectBody(entryValue)
        }
    }

    public func encodeStringArray(_ value: [String], forKey key: String) {
        writeKey(key, .stringArray)
        writeLength(value.count)
        for element in value { writeString(element) }
    }

    public func encodeBytesArray(_ value: [[UInt8]], forKey key: String) {
        writeKey(key, .bytesArray)
        writeLength(value.count)
        for element in value { writeBytes(element) }
    }

    /// Writes `value` under `key` through the Codable adapter, as a nested object of the same binary format.
    public func encode<T: Encodable>(_ value: T, forKey key: String) throws {
        let node = try PostboxCodableEncoder.encodeNode(value)
        writeKey(key, node.valueType)
        writeNode(node)
    }

    /// Encodes an `Encodable` value as a stand-alone object (type hash 0) and returns its bytes.
    public static func encodeCodable<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = PostboxEncoder()
        try encoder.encode(value, forKey: "_")
        return encoder.makeData()
    }

    func writeNode(_ node: CodableNode) {
        switch node {
        case .int32(let value): buffer.writeLittleEndian(value)
        case .int64(let value): buffer.writeLittleEndian(value)
        case .bool(let value): buffer.write(value ? 1 : 0)
        case .double(let value): buffer.writeDouble(value)
        case .string(let value): writeString(value)
        case .bytes(let value): writeBytes(value)
        case .nil: break
        case .object(let fields):
            buffer.writeLittleEndian(Int32(0))
            let lengthOffset = buffer.count
            writeLength(0)
            let start = buffer.count
            for (key, child) in fields {
                writeKey(key, child.valueType)
                writeNode(child)
            }
            _ = buffer.overwrite(littleEndian: Int32(truncatingIfNeeded: buffer.count - start), at: lengthOffset)
        }
    }
}
