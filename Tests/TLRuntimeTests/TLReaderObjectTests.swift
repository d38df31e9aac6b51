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
}
