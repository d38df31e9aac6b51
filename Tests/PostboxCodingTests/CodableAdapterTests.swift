import PostboxCoding
import Testing

struct Settings: Codable, Equatable {
    enum Mode: String, Codable { case light, dark }
    struct Limits: Codable, Equatable {
        var maxCount: Int32
        var sizes: [Int64]
    }

    var name: String
    var enabled: Bool
    var ratio: Double
    var count: Int
    var mode: Mode
    var limits: Limits
    var tags: [String]
    var optional: String?
    var data: [UInt8]
    var table: [String: Int]
}

@Suite struct CodableAdapterTests {
    let value = Settings(
        name: "ánh", enabled: true, ratio: 0.25, count: -3, mode: .dark,
        limits: .init(maxCount: 200, sizes: [1, 2, 3]), tags: ["a", "b"], optional: nil, data: [1, 2, 255],
        table: ["x": 1])

    @Test func roundTripsThroughTheBinaryFormat() throws {
        let bytes = try PostboxEncoder.encodeCodable(value)
        #expect(try PostboxDecoder.decodeCodable(Settings.self, from: bytes) == value)
    }

    @Test func fieldsAreNativePostboxFields() throws {
        let encoder = PostboxEncoder()
        try encoder.encode(value, forKey: "settings")
        let decoder = try PostboxDecoder(bytes: encoder.makeData())
        #expect(try decoder.decode(Settings.self, forKey: "settings") == value)
        #expect(try decoder.decode(Settings.self, forKey: "other") == nil)
    }

    @Test func typeMismatchThrows() throws {
        let bytes = try PostboxEncoder.encodeCodable(["not": "settings"])
        #expect(throws: (any Error).self) { try PostboxDecoder.decodeCodable(Settings.self, from: bytes) }
    }

    /// Empty arrays of any element type stay arrays (an empty `[Int32]` casts to `[UInt8]`, which once made it bytes).
    @Test func emptyArraysKeepTheirType() throws {
        var empty = value
        empty.limits.sizes = []
        empty.tags = []
        empty.data = []
        let bytes = try PostboxEncoder.encodeCodable(empty)
        #expect(try PostboxDecoder.decodeCodable(Settings.self, from: bytes) == empty)
    }
}
