import TestVectors
import Testing
import ValueBox

@Suite struct ValueBoxKeyTests {
    @Test func writesBigEndian() {
        var key = ValueBoxKey(length: 15)
        key.setInt32(0, value: 0x0102_0304)
        key.setInt64(4, value: -2)
        key.setUInt16(12, value: 0xABCD)
        key.setUInt8(14, value: 7)
        #expect(key.bytes == [1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xab, 0xcd, 7])
        #expect(key.getInt32(0) == 0x0102_0304)
        #expect(key.getInt64(4) == -2)
        #expect(key.getUInt16(12) == 0xABCD)
    }

    @Test func ordersByMemcmpSoNegativesFollowPositives() {
        #expect(ValueBoxKey(int64: 1) < ValueBoxKey(int64: 2))
        #expect(ValueBoxKey(int64: Int64.max) < ValueBoxKey(int64: -1))
        #expect(ValueBoxKey([1, 2]) < ValueBoxKey([1, 2, 0]))
        #expect(ValueBoxKey([1, 3]) > ValueBoxKey([1, 2, 0xff]))
    }

    @Test func successorBoundsEveryKeyWithThePrefix() {
        var generator = SeededGenerator(seed: 1)
        for _ in 0..<2000 {
            let length = Int.random(in: 1...4, using: &generator)
            let prefix = ValueBoxKey(
                (0..<length).map { _ in
                    [0, 0xff, UInt8.random(in: 0...255, using: &generator)].randomElement(using: &generator)!
                })
            let extended =
                prefix
                + ValueBoxKey(
                    (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    })
            #expect(prefix.successor > extended, "\(prefix) \(extended)")
            #expect(prefix.isPrefix(of: extended))
            if prefix.bytes.contains(where: { $0 != 0 }) {
                #expect(prefix.predecessor < prefix)
            }
        }
    }
}
