import GZip
import TLRuntime
import Testing

@Suite struct TLWriterReaderTests {
    @Test func integersAreLittleEndian() throws {
        var w = TLWriter()
        w.writeInt32(-2)
        w.writeInt64(0x0102_0304_0506_0708)
        w.writeDouble(1.5)
        w.writeBool(true)
        w.writeBool(false)
        #expect(w.bytes.prefix(12) == [0xfe, 0xff, 0xff, 0xff, 8, 7, 6, 5, 4, 3, 2, 1])
        #expect(Array(w.bytes[20..<28]) == [0xb5, 0x75, 0x72, 0x99, 0x37, 0x97, 0x79, 0xbc])
        var r = TLReader(w.bytes)
        #expect(try r.readInt32() == -2)
        #expect(try r.readInt64() == 0x0102_0304_0506_0708)
        #expect(try r.readDouble() == 1.5)
        #expect(try r.readBool() == true)
        #expect(try r.readBool() == false)
        #expect(r.isAtEnd)
    }

    /// TL strings: below 254 bytes a 1-byte length, from 254 on `0xfe` and 3 bytes; padded to 4 (253/254 boundary).
    @Test(arguments: [0, 1, 2, 3, 4, 252, 253, 254, 255, 256, 1000, 70000])
    func bytesLengthEncoding(length: Int) throws {
        let value = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var w = TLWriter()
        w.writeBytes(value)
        let header = length < 254 ? 1 : 4
        #expect(w.bytes.count == (header + length + 3) / 4 * 4)
        if length < 254 {
            #expect(w.bytes[0] == UInt8(length))
        } else {
            #expect(Array(w.bytes[0..<4]) == [254, UInt8(length & 0xff), UInt8(length >> 8 & 0xff), UInt8(length >> 16)])
        }
        #expect(w.bytes[(header + length)...].allSatisfy { $0 == 0 })
        var r = TLReader(w.bytes)
        #expect(try r.readBytes() == value)
        #expect(r.isAtEnd)
    }

    /// A reused writer pads with zeros even where its storage holds earlier bytes (the padding word is written
    /// first, then the header and data over it).
    @Test(arguments: [0, 1, 2, 3, 4, 5, 252, 253, 254, 255, 256, 257])
    func paddingIsZeroAfterReset(length: Int) {
        let value = (0..<length).map { UInt8(truncatingIfNeeded: $0 &+ 1) }
        var fresh = TLWriter()
        fresh.writeBytes(value)
        fresh.writeString(String(repeating: "é", count: length / 2))
        var reused = TLWriter(capacity: 16)
        reused.writeRaw([UInt8](repeating: 0xff, count: 1200))
        reused.reset()
        reused.writeBytes(value)
        reused.writeString(String(repeating: "é", count: length / 2))
        #expect(reused.bytes == fresh.bytes)
        #expect(fresh.bytes.count % 4 == 0)
    }

    @Test func stringsAndInts128() throws {
        var w = TLWriter()
        w.writeString("phở 👋")
        let nonce = TLInt128(bytes: Array(0..<16))!
        w.writeInt128(nonce)
        w.writeInt256(TLInt256(bytes: Array(0..<32))!)
        #expect(Array(w.bytes[12..<28]) == Array(0..<16))
        var r = TLReader(w.bytes)
        #expect(try r.readString() == "phở 👋")
        #expect(try r.readInt128() == nonce)
        #expect(try r.readInt256().bytes == Array(0..<32))
    }

    @Test func vectors() throws {
        var w = TLWriter()
        w.writeVectorHeader(count: 3)
        for v: Int64 in [1, -1, 7] { w.writeInt64(v) }
        var r = TLReader(w.bytes)
        #expect(try r.readVector(minElementSize: 8, TLParse.int64) == [1, -1, 7])
        // A count that the remaining bytes cannot hold fails before any allocation.
        var hostile = TLWriter()
        hostile.writeVectorHeader(count: Int(Int32.max))
        hostile.writeInt64(1)
        var h = TLReader(hostile.bytes)
        #expect(throws: TLDecodingError.invalidLength(offset: 4, claimed: Int(Int32.max))) {
            try h.readVector(minElementSize: 8, TLParse.int64)
        }
        var negative = TLReader([0x15, 0xc4, 0xb5, 0x1c, 0xff, 0xff, 0xff, 0xff])
        #expect(throws: TLDecodingError.self) { try negative.readVector(TLParse.int32) }
        var notVector = TLReader([1, 2, 3, 4, 0, 0, 0, 0])
        #expect(throws: TLDecodingError.invalidVector(id: 0x0403_0201, offset: 0)) { try notVector.readVector(TLParse.int32) }
    }

    @Test func truncatedInputFails() {
        var w = TLWriter()
        w.writeBytes([UInt8](repeating: 7, count: 300))
        for cut in [0, 1, 3, 4, 100, 303] {
            var r = TLReader(Array(w.bytes[0..<cut]))
            #expect(throws: TLDecodingError.self) { try r.readBytes() }
        }
        var r = TLReader([1, 2])
        #expect(throws: TLDecodingError.truncated(offset: 0, needed: 4)) { try r.readInt32() }
        var b = TLReader([0, 0, 0, 0])
        #expect(throws: TLDecodingError.invalidBool(id: 0, offset: 0)) { try b.readBool() }
    }

    /// A length field claiming 16 MB with 8 bytes behind it fails without allocating the claim.
    @Test func hostileLengthDoesNotAllocate() {
        var r = TLReader([254, 0xff, 0xff, 0xff, 1, 2, 3, 4])
        #expect(throws: TLDecodingError.truncated(offset: 0, needed: 0x100_0004)) { try r.readBytes() }
    }
}
