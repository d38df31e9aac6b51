import Buffers
import Testing

@Suite struct MemoryBufferTests {
    @Test func ordersLikeMemcmp() {
        let a = MemoryBuffer([0x00, 0xFF])
        let b = MemoryBuffer([0x01])
        let prefix = MemoryBuffer([0x00])
        #expect(a < b)
        #expect(prefix < a)
        #expect(!(a < a))
        #expect([b, a, prefix].sorted() == [prefix, a, b])
    }

    @Test func hexRoundTrip() {
        let buffer = MemoryBuffer([0xDE, 0xAD, 0xBE, 0xEF, 0x00])
        #expect(buffer.hexString == "deadbeef00")
        #expect(MemoryBuffer(hexString: "DEADbeef00") == buffer)
        #expect(MemoryBuffer(hexString: "abc") == nil)
        #expect(MemoryBuffer(hexString: "zz") == nil)
    }

    @Test func descriptionIsShortForLargeBuffers() {
        let buffer = MemoryBuffer([UInt8](repeating: 0xAB, count: 100))
        #expect(buffer.description.hasPrefix("<100 bytes: abab"))
        #expect(buffer.description.hasSuffix("…>"))
    }
}
