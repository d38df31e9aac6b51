import Hashing
import TestVectors
import Testing

@Suite struct CRC32Tests {
    @Test func knownAnswers() {
        #expect(CRC32.checksum([]) == 0)
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)  // the CRC-32/ISO-HDLC check value
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        #expect(CRC32.checksum([0]) == 0xD202_EF8D)
        #expect(CRC32.checksum([UInt8](repeating: 0xFF, count: 32)) == 0xFF6C_AB0B)
    }

    /// The sliced loop must agree with the bitwise definition at every length and alignment.
    @Test func slicedMatchesBitwiseDefinition() {
        var generator = SeededGenerator(seed: 42)
        for length in 0..<80 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            #expect(CRC32.checksum(bytes) == Self.bitwise(bytes), "length \(length)")
        }
    }

    @Test func incrementalEqualsOneShot() {
        var generator = SeededGenerator(seed: 7)
        let bytes = (0..<1000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        for split in [0, 1, 7, 8, 9, 500, 999, 1000] {
            var crc = CRC32()
            crc.update(Array(bytes[..<split]))
            crc.update(Array(bytes[split...]))
            #expect(crc.value == CRC32.checksum(bytes), "split at \(split)")
        }
    }

    static func bitwise(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
