import GZip
import TLRuntime
import Testing

/// A tiny hand-written boxed type (`node#1 child:Node` / `leaf#2 value:int`) to test object reading without the
/// generated API.
indirect enum Node: TLObject, Equatable {
    case node(Node)
    case leaf(Int32)

    func serialize(_ w: inout TLWriter) {
        switch self {
        case .node(let child): w.writeUInt32(1); child.serialize(&w)
        case .leaf(let value): w.writeUInt32(2); w.writeInt32(value)
        }
    }

    static func parse(_ r: inout TLReader) throws(TLDecodingError) -> Node { try r.readObject(parseBody) }

    static func parseBody(_ id: UInt32, _ r: inout TLReader) throws(TLDecodingError) -> Node {
        switch id {
        case 1: return .node(try Node.parse(&r))
        case 2: return .leaf(try r.readInt32())
        default: throw r.unknownConstructor(id)
        }
    }
}

@Suite struct TLReaderObjectTests {
    @Test func unknownConstructorCarriesTheId() {
        var r = TLReader([0, 0, 0, 0, 0xef, 0xbe, 0xad, 0xde])
        _ = try? r.readInt32()
        #expect(throws: TLDecodingError.unknownConstructor(id: 0xdead_beef, offset: 4)) { try Node.parse(&r) }
    }

    /// `gzip_packed#3072cfa1` where an object is expected is unpacked transparently.
    @Test func gzipPackedIsTransparent() throws {
        let value = Node.node(.node(.leaf(42)))
        var packed = TLWriter()
        packed.writeUInt32(TLConstructorIds.gzipPacked)
        packed.writeBytes(GZip.compress(value.serialized()))
        #expect(try Node(tlBytes: packed.bytes) == value)
        // Nested: a packed object inside a plain one.
        var outer = TLWriter()
        outer.writeUInt32(1)
        outer.writeRaw(packed.bytes)
        #expect(try Node(tlBytes: outer.bytes) == .node(value))
    }

    @Test func gzipBombHitsTheCap() throws {
        var packed = TLWriter()
        packed.writeUInt32(TLConstructorIds.gzipPacked)
        packed.writeBytes(GZip.compress([UInt8](repeating: 0, count: 4 << 20), level: 9))
        var r = TLReader(packed.bytes, limits: .init(maxUnpackedSize: 1 << 20))
        #expect(throws: TLDecodingError.self) { try Node.parse(&r) }
        var corrupt = TLWriter()
        corrupt.writeUInt32(TLConstructorIds.gzipPacked)
        corrupt.writeBytes([0x1f, 0x8b, 1, 2, 3])
        var c = TLReader(corrupt.bytes)
        #expect(throws: TLDecodingError.self) { try Node.parse(&c) }
    }

    /// 100 000 nested objects (a stack-overflow attempt) fail at the depth limit.
    @Test func deepNestingFails() {
        var w = TLWriter()
        for _ in 0..<100_000 { w.writeUInt32(1) }
        w.writeUInt32(2)
        w.writeInt32(0)
        var r = TLReader(w.bytes)
        #expect(throws: TLDecodingError.nestingTooDeep(limit: 64)) { try Node.parse(&r) }
        var shallow = TLWriter()
        for _ in 0..<63 { shallow.writeUInt32(1) }
        shallow.writeUInt32(2)
        shallow.writeInt32(5)
        #expect((try? Node(tlBytes: shallow.bytes)) != nil)
    }

    @Test func leftoverBytesAreAnError() {
        #expect(throws: TLDecodingError.self) { try Node(tlBytes: [2, 0, 0, 0, 1, 0, 0, 0, 9]) }
    }

    static func packed(_ body: [UInt8]) -> [UInt8] {
        var packed = TLWriter()
        packed.writeUInt32(TLConstructorIds.gzipPacked)
        packed.writeBytes(GZip.compress(body, level: 9))
        return packed.takeBytes()
    }

    /// A vector of packed objects: each inflates within the cap, together they may not (one budget per message).
    @Test func everyPackedObjectOfAMessageSharesOneInflateBudget() throws {
        // Each element: a leaf padded to 400 KB inside its packed object... which would be trailing bytes, so pad
        // with a chain of nodes instead: node^k(leaf) is 4k + 8 bytes.
        var chain = TLWriter()
        for _ in 0..<60 { chain.writeUInt32(1) }
        chain.writeUInt32(2)
        chain.writeInt32(7)
        let element = Self.packed(chain.bytes)
        var vector = TLWriter()
        vector.writeVectorHeader(count: 5)
        for _ in 0..<5 { vector.writeRaw(element) }
        // 5 × 248 inflated bytes: a budget of 1,000 admits four and refuses the fifth.
        var reader = TLReader(vector.bytes, limits: .init(maxUnpackedSize: 1000))
        #expect(throws: TLDecodingError.self) { _ = try reader.readVector(Node.parse) }
        var enough = TLReader(vector.bytes, limits: .init(maxUnpackedSize: 1240))
        #expect(try enough.readVector(Node.parse).count == 5)
        #expect(enough.inflateBudget == 0)
    }

    /// A reader continuing another (a container's child, an inflated payload) keeps its depth and its budget.
    @Test func continuingReadersCarryDepthAndBudget() throws {
        var outer = TLReader([], limits: .init(maxDepth: 4, maxUnpackedSize: 100))
        try outer.enter()
        try outer.enter()
        var inner = TLReader([1, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0], continuing: outer)
        #expect(inner.depth == 2)
        #expect(throws: TLDecodingError.nestingTooDeep(limit: 4)) { try Node.parse(&inner) }
        var packedReader = TLReader(Self.packed([2, 0, 0, 0, 5, 0, 0, 0]), continuing: outer)
        #expect(try Node.parse(&packedReader) == .leaf(5))
        outer.absorb(packedReader)
        #expect(outer.inflateBudget == 92)
    }

    /// The bytes inside a gzip_packed are exactly one object: anything after it is an error.
    @Test func bytesAfterThePackedObjectAreAnError() {
        let packed = Self.packed([2, 0, 0, 0, 5, 0, 0, 0, 9, 9, 9, 9])
        #expect(throws: TLDecodingError.trailingBytes(count: 4, offset: packed.count)) { try Node(tlBytes: packed) }
    }

    /// A bytes value TL cannot encode (length ≥ 2²⁴) is refused, not written with a wrapped length.
    @Test func oversizedBytesAreATypedErrorNotATruncation() throws {
        let huge = [UInt8](repeating: 1, count: TLWriter.maximumBytesLength + 1)
        var writer = TLWriter()
        writer.writeInt32(1)
        writer.writeBytes(huge)
        #expect(writer.failure == .bytesTooLong(length: huge.count))
        #expect(writer.count == 8, "nothing of the value was written")
        #expect(throws: TLEncodingError.bytesTooLong(length: huge.count)) { try Blob(bytes: huge).encoded() }
        // A value TL can encode leaves no failure behind (the 3-byte length form is tested in TLWriterReaderTests).
        #expect(try Blob(bytes: [UInt8](repeating: 1, count: 300)).encoded().count == 4 + 304)
        writer.reset()
        #expect(writer.failure == nil)
    }
}

/// `blob#3 data:bytes`.
struct Blob: TLObject {
    let bytes: [UInt8]

    func serialize(_ w: inout TLWriter) {
        w.writeUInt32(3)
        w.writeBytes(bytes)
    }

    static func parse(_ r: inout TLReader) throws(TLDecodingError) -> Blob {
        try r.readObject { (id, r: inout TLReader) throws(TLDecodingError) in
            guard id == 3 else { throw r.unknownConstructor(id) }
            return Blob(bytes: try r.readBytes())
        }
    }
}
