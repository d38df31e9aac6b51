import Hashing
import PostboxCoding
import TestVectors
import Testing

/// A type using every field kind.
struct Everything: PostboxCoding, Equatable {
    var int32: Int32 = -7
    var int64: Int64 = 1 << 40
    var bool = true
    var double = 2.5
    var string = "phở"
    var nested: Point? = Point(x: 1, y: 2)
    var int32s: [Int32] = [1, -2, 3]
    var int64s: [Int64] = [Int64.min, 0]
    var points: [Point] = [Point(x: 3, y: 4), Point(x: 5, y: 6)]
    var dictionary: [(Point, Point)] = [(Point(x: 7, y: 8), Point(x: 9, y: 10))]
    var bytes: [UInt8] = [0, 255, 1]
    var strings = ["a", "", "ánh"]
    var byteArrays: [[UInt8]] = [[1], []]

    init() {}

    init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        int32 = try decoder.decodeInt32(forKey: "i32")
        int64 = try decoder.decodeInt64(forKey: "i64")
        bool = try decoder.decodeBool(forKey: "b")
        double = try decoder.decodeDouble(forKey: "d")
        string = try decoder.decodeString(forKey: "s")
        nested = try decoder.decodeObjectForKey("o", as: Point.self)
        int32s = decoder.decodeInt32ArrayForKey("a32")
        int64s = decoder.decodeInt64ArrayForKey("a64")
        points = try decoder.decodeObjectArrayForKey("oa", as: Point.self)
        dictionary = try decoder.decodeObjectDictionaryForKey("od").map { ($0.key as! Point, $0.value as! Point) }
        bytes = try decoder.decodeBytes(forKey: "by")
        strings = decoder.decodeStringArrayForKey("sa")
        byteArrays = decoder.decodeBytesArrayForKey("ba")
    }

    func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt32(int32, forKey: "i32")
        encoder.encodeInt64(int64, forKey: "i64")
        encoder.encodeBool(bool, forKey: "b")
        encoder.encodeDouble(double, forKey: "d")
        encoder.encodeString(string, forKey: "s")
        if let nested { encoder.encodeObject(nested, forKey: "o") } else { encoder.encodeNil(forKey: "o") }
        encoder.encodeInt32Array(int32s, forKey: "a32")
        encoder.encodeInt64Array(int64s, forKey: "a64")
        encoder.encodeObjectArray(points, forKey: "oa")
        encoder.encodeObjectDictionary(dictionary.map { (key: $0.0, value: $0.1) }, forKey: "od")
        encoder.encodeBytes(bytes, forKey: "by")
        encoder.encodeStringArray(strings, forKey: "sa")
        encoder.encodeBytesArray(byteArrays, forKey: "ba")
    }

    static func == (lhs: Everything, rhs: Everything) -> Bool {
        lhs.int32 == rhs.int32 && lhs.int64 == rhs.int64 && lhs.bool == rhs.bool && lhs.double == rhs.double
            && lhs.string == rhs.string && lhs.nested == rhs.nested && lhs.int32s == rhs.int32s
            && lhs.int64s == rhs.int64s && lhs.points == rhs.points && lhs.bytes == rhs.bytes
            && lhs.strings == rhs.strings && lhs.byteArrays == rhs.byteArrays
            && lhs.dictionary.map(\.0) == rhs.dictionary.map(\.0) && lhs.dictionary.map(\.1) == rhs.dictionary.map(\.1)
    }
}

struct Point: PostboxCoding, Equatable {
    var x: Int32
    var y: Int32
    init(x: Int32, y: Int32) { self.x = x; self.y = y }
    init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        x = try decoder.decodeInt32(forKey: "x")
        y = try decoder.decodeInt32(forKey: "y")
    }
    func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt32(x, forKey: "x")
        encoder.encodeInt32(y, forKey: "y")
    }
}

func register() {
    declareEncodable(Point.self)
    declareEncodable(Everything.self)
}

@Suite struct PostboxEncoderTests {
    @Test func knownAnswerBytesForAnObject() {
        register()
        let encoder = PostboxEncoder()
        encoder.encodeRootObject(Point(x: 1, y: -1))
        let hash = MurMurHash32.hashString("Point")
        let h = withUnsafeBytes(of: hash.littleEndian) { Array($0) }
        // key "_" (len 1), tag 5 (Object), type hash, body length 14, then "x" Int32 1 and "y" Int32 -1.
        let expected: [UInt8] =
            [1, 0x5f, 5] + h + [14, 0, 0, 0]
            + [1, 0x78, 0, 1, 0, 0, 0] + [1, 0x79, 0, 0xff, 0xff, 0xff, 0xff]
        #expect(encoder.makeData() == expected)
        #expect(PostboxTypeRegistry.typeHash(of: Point.self) == hash)
    }

    /// The type hash is remembered per type: asked again, and for other types in between, each stays its own name's.
    @Test func rememberedTypeHashesStayEachTypesOwn() {
        for _ in 0..<3 {
            #expect(PostboxTypeRegistry.typeHash(of: Point.self) == MurMurHash32.hashString("Point"))
            #expect(PostboxTypeRegistry.typeHash(of: Int.self) == MurMurHash32.hashString("Int"))
            #expect(PostboxTypeRegistry.typeHash(of: [Point].self) == MurMurHash32.hashString("Array<Point>"))
        }
    }

    @Test func roundTripsEveryValueType() throws {
        register()
        var value = Everything()
        value.nested = nil
        let encoder = PostboxEncoder()
        encoder.encodeRootObject(value)
        let decoded = try #require(try PostboxDecoder.decodeRoot(encoder.makeData()) as? Everything)
        #expect(decoded == value)
        #expect(try PostboxDecoder.decodeRoot(PostboxEncoder().makeData()) == nil)
        let full = PostboxEncoder()
        full.encodeRootObject(Everything())
        #expect(try PostboxDecoder.decodeRoot(full.makeData()) as? Everything == Everything())
    }

    @Test func readsFieldsInAnyOrderAndReportsMissingOnes() throws {
        let encoder = PostboxEncoder()
        encoder.encodeInt32(1, forKey: "a")
        encoder.encodeString("two", forKey: "b")
        encoder.encodeInt64(3, forKey: "c")
        encoder.encodeNil(forKey: "n")
        let decoder = try PostboxDecoder(bytes: encoder.makeData())
        #expect(decoder.decodeOptionalInt64ForKey("c") == 3)
        #expect(decoder.decodeOptionalInt32ForKey("a") == 1)
        #expect(decoder.decodeOptionalStringForKey("b") == "two")
        #expect(decoder.decodeOptionalInt32ForKey("n") == nil)
        #expect(decoder.containsKey("n"))
        #expect(throws: PostboxDecodingError.missingField("zz")) { try decoder.decodeInt32(forKey: "zz") }
        #expect(throws: PostboxDecodingError.typeMismatch(key: "b", expected: "Int32")) {
            try decoder.decodeInt32(forKey: "b")
        }
    }

    @Test func unknownTypeHashIsAnError() throws {
        struct Unregistered: PostboxCoding {
            init() {}
            init(decoder: PostboxDecoder) throws(PostboxDecodingError) {}
            func encode(_ encoder: PostboxEncoder) {}
        }
        let encoder = PostboxEncoder()
        encoder.encodeRootObject(Unregistered())
        #expect(throws: PostboxDecodingError.self) { try PostboxDecoder.decodeRoot(encoder.makeData()) }
    }
}

@Suite struct HostileInputTests {
    @Test func hugeClaimedLengthsFailWithoutAllocating() {
        // key "s", tag String, length 0x7fffffff, no data.
        #expect(throws: PostboxDecodingError.invalidLength(offset: 3, claimed: 0x7fff_ffff)) {
            try PostboxDecoder(bytes: [1, 0x73, 4, 0xff, 0xff, 0xff, 0x7f])
        }
        // An object array claiming 2^31-1 elements.
        #expect(throws: PostboxDecodingError.self) {
            try PostboxDecoder(bytes: [1, 0x61, 8, 0xff, 0xff, 0xff, 0x7f, 0])
        }
        // A negative length.
        #expect(throws: PostboxDecodingError.self) { try PostboxDecoder(bytes: [1, 0x73, 10, 0xff, 0xff, 0xff, 0xff]) }
        // An unknown type tag.
        #expect(throws: PostboxDecodingError.unknownValueType(offset: 2, tag: 14)) {
            try PostboxDecoder(bytes: [1, 0x61, 14])
        }
    }

    @Test func deepNestingIsRejected() {
        var body: [UInt8] = []
        for _ in 0..<200 {
            let length = withUnsafeBytes(of: Int32(body.count).littleEndian) { Array($0) }
            body = [1, 0x6f, 5, 0, 0, 0, 0] + length + body
        }
        #expect(throws: PostboxDecodingError.tooDeep) { try PostboxDecoder(bytes: body) }
    }

    /// Every truncation and thousands of random corruptions of a valid encoding decode or throw, never trap.
    @Test func corruptedBytesNeverTrap() {
        register()
        let encoder = PostboxEncoder()
        encoder.encodeRootObject(Everything())
        let valid = encoder.makeData()
        for length in 0..<valid.count {
            _ = try? PostboxDecoder.decodeRoot(Array(valid.prefix(length)))
        }
        var generator = SeededGenerator(seed: 7)
        var failures = 0
        for _ in 0..<5000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do { _ = try PostboxDecoder.decodeRoot(bytes) } catch { failures += 1 }
        }
        #expect(failures > 0)
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? PostboxDecoder.decodeRoot(bytes)
        }
    }
}
