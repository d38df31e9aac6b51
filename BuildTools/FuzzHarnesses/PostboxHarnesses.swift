import PostboxCoding

extension FuzzHarness {
    /// Stored bytes → PostboxCoding (Telegram's binary object format), the first byte picking the reader: a
    /// registered object decoded by key through the type registry, the `Codable` adapter, or every typed accessor
    /// on a handful of keys. Whatever decodes is encoded again, and must decode to the same bytes once more.
    public static let postboxDecoder = FuzzHarness(
        name: "postbox-decoder", summary: "stored bytes → PostboxDecoder objects, Codable values, typed fields"
    ) { input in
        guard let selector = input.first else { return .rejected }
        _ = PostboxFuzzRecord.register
        let bytes = Array(input.dropFirst())
        return .of {
            switch selector % 3 {
            case 0: try PostboxFuzzRecord.roundTrip(bytes)
            case 1: try PostboxFuzzCodable.roundTrip(bytes)
            default: try readEveryField(bytes)
            }
        }
    }

    /// Every typed accessor of a decoder, on the keys the seeds use and on keys that are absent.
    private static func readEveryField(_ bytes: [UInt8]) throws {
        let decoder = try PostboxDecoder(bytes: bytes)
        var touched = 0
        for key in ["_", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "", "missing"] {
            touched &+= decoder.containsKey(key) ? 1 : 0
            touched &+= Int(decoder.decodeOptionalInt32ForKey(key) ?? 0)
            touched &+= Int(truncatingIfNeeded: decoder.decodeOptionalInt64ForKey(key) ?? 0)
            touched &+= decoder.decodeOptionalBoolForKey(key) == true ? 1 : 0
            touched &+= decoder.decodeOptionalDoubleForKey(key)?.isNaN == true ? 1 : 0
            touched &+= decoder.decodeOptionalStringForKey(key)?.utf8.count ?? 0
            touched &+= decoder.decodeOptionalBytesForKey(key)?.count ?? 0
            touched &+= decoder.decodeInt32ArrayForKey(key).count + decoder.decodeInt64ArrayForKey(key).count
            touched &+= decoder.decodeStringArrayForKey(key).reduce(0) { $0 &+ $1.utf8.count }
            touched &+= decoder.decodeBytesArrayForKey(key).reduce(0) { $0 &+ $1.count }
            touched &+= decoder.decodeMemoryBufferForKey(key) == nil ? 0 : 1
            // Objects of unregistered types throw; the harness counts that as a refusal only at the end.
            touched &+= (try? decoder.decodeObjectArrayForKey(key).count) ?? 0
            touched &+= (try? decoder.decodeObjectDictionaryForKey(key).count) ?? 0
            touched &+= (try? decoder.decodeObjectForKey(key)) == nil ? 0 : 1
        }
        _ = try decoder.decodeRootObject()
        if touched == Int.min { print(touched) }  // keeps the reads from being optimized away
    }
}

/// A PostboxCoding type with a field of every kind, nesting itself as an object, in object arrays and in object
/// dictionaries.
struct PostboxFuzzRecord: PostboxCoding, Equatable {
    var int32: Int32?
    var int64: Int64?
    var bool: Bool?
    var doubleBits: UInt64?
    var string: String?
    var bytes: [UInt8]?
    var isNil: Bool
    var int32s: [Int32]
    var int64s: [Int64]
    var strings: [String]
    var byteArrays: [[UInt8]]
    var child: [PostboxFuzzRecord]
    var children: [PostboxFuzzRecord]
    var pairs: [PostboxFuzzRecord]

    static let register: Void = declareEncodable(PostboxFuzzRecord.self)

    init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        int32 = decoder.decodeOptionalInt32ForKey("a")
        int64 = decoder.decodeOptionalInt64ForKey("b")
        bool = decoder.decodeOptionalBoolForKey("c")
        doubleBits = decoder.decodeOptionalDoubleForKey("d")?.bitPattern
        string = decoder.decodeOptionalStringForKey("e")
        bytes = decoder.decodeOptionalBytesForKey("f")
        isNil = decoder.containsKey("n") && decoder.decodeOptionalInt32ForKey("n") == nil
        int32s = decoder.decodeInt32ArrayForKey("g")
        int64s = decoder.decodeInt64ArrayForKey("h")
        strings = decoder.decodeStringArrayForKey("i")
        byteArrays = decoder.decodeBytesArrayForKey("j")
        child = try decoder.decodeObjectForKey("k", as: PostboxFuzzRecord.self).map { [$0] } ?? []
        children = try decoder.decodeObjectArrayForKey("l", as: PostboxFuzzRecord.self)
        pairs = []
        for (key, value) in try decoder.decodeObjectDictionaryForKey("m") {
            guard let key = key as? PostboxFuzzRecord, let value = value as? PostboxFuzzRecord else {
                throw .typeMismatch(key: "m", expected: "PostboxFuzzRecord pairs")
            }
            pairs += [key, value]
        }
    }

    func encode(_ encoder: PostboxEncoder) {
        if let int32 { encoder.encodeInt32(int32, forKey: "a") }
        if let int64 { encoder.encodeInt64(int64, forKey: "b") }
        if let bool { encoder.encodeBool(bool, forKey: "c") }
        if let doubleBits { encoder.encodeDouble(Double(bitPattern: doubleBits), forKey: "d") }
        if let string { encoder.encodeString(string, forKey: "e") }
        if let bytes { encoder.encodeBytes(bytes, forKey: "f") }
        if isNil { encoder.encodeNil(forKey: "n") }
        if !int32s.isEmpty { encoder.encodeInt32Array(int32s, forKey: "g") }
        if !int64s.isEmpty { encoder.encodeInt64Array(int64s, forKey: "h") }
        if !strings.isEmpty { encoder.encodeStringArray(strings, forKey: "i") }
        if !byteArrays.isEmpty { encoder.encodeBytesArray(byteArrays, forKey: "j") }
        if let first = child.first { encoder.encodeObject(first, forKey: "k") }
        if !children.isEmpty { encoder.encodeObjectArray(children, forKey: "l") }
        if !pairs.isEmpty {
            let entries = stride(from: 0, to: pairs.count - 1, by: 2).map { (key: pairs[$0], value: pairs[$0 + 1]) }
            encoder.encodeObjectDictionary(
                entries.map { (key: $0.key as PostboxCoding, value: $0.value as PostboxCoding) }, forKey: "m")
        }
    }

    /// Decodes the root object; a record is encoded, decoded and encoded again, and must not change on the way.
    static func roundTrip(_ bytes: [UInt8]) throws {
        guard let record = try PostboxDecoder.decodeRoot(bytes) as? PostboxFuzzRecord else { return }
        let encoder = PostboxEncoder()
        encoder.encodeRootObject(record)
        let first = encoder.makeData()
        let again = try PostboxDecoder.decodeRoot(first) as? PostboxFuzzRecord
        precondition(again == record, "a decoded PostboxFuzzRecord changed after encoding and decoding it again")
        let second = PostboxEncoder()
        second.encodeRootObject(again!)
        precondition(second.makeData() == first, "re-encoding a decoded PostboxFuzzRecord is not stable")
    }
}

/// A `Codable` value with fields of the kinds the adapter maps, nesting itself in an array.
struct PostboxFuzzCodable: Codable, Equatable {
    var a: Int32?
    var b: Int64?
    var c: Bool?
    var d: Double?
    var e: String?
    var f: [UInt8]?
    var g: [PostboxFuzzCodable]?
    var h: [Int64]?
    var i: UInt8?
    var j: Int?
    var k: Float?
    var l: UInt64?
    var m: [String]?

    /// Decodes through the adapter; what decodes is encoded, decoded and encoded again to the same bytes.
    static func roundTrip(_ bytes: [UInt8]) throws {
        let value = try PostboxDecoder.decodeCodable(PostboxFuzzCodable.self, from: bytes)
        let first = try PostboxEncoder.encodeCodable(value)
        let again = try PostboxDecoder.decodeCodable(PostboxFuzzCodable.self, from: first)
        let second = try PostboxEncoder.encodeCodable(again)
        precondition(second == first, "re-encoding a decoded Codable value is not stable")
    }
}
