import Buffers
import Testing

@Suite struct WriteBufferTests {
    @Test func writesLittleAndBigEndian() {
        var writer = WriteBuffer()
        writer.writeLittleEndian(UInt32(0x0102_0304))
        writer.writeBigEndian(UInt16(0x0A0B))
        writer.write(0xFF)
        #expect(writer.bytes == [0x04, 0x03, 0x02, 0x01, 0x0A, 0x0B, 0xFF])
    }

    @Test func overwriteFillsALengthPrefixAndRefusesOutOfRange() {
        var writer = WriteBuffer()
        writer.writeLittleEndian(UInt32(0))
        writer.write(contentsOf: [1, 2, 3])
        let inside = writer.overwrite(littleEndian: UInt32(3), at: 0)
        #expect(inside)
        #expect(writer.bytes == [3, 0, 0, 0, 1, 2, 3])
        let pastEnd = writer.overwrite(littleEndian: UInt32(3), at: 4)
        let negative = writer.overwrite(littleEndian: UInt32(3), at: -1)
        #expect(!pastEnd && !negative)
        #expect(writer.bytes == [3, 0, 0, 0, 1, 2, 3])
    }

    /// Property: whatever integers are written are read back, in order, in either byte order.
    @Test func roundTripsRandomIntegers() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let values = (0..<20).map { _ in Int64.random(in: .min ... .max, using: &generator) }
            var writer = WriteBuffer()
            for (index, value) in values.enumerated() {
                if index % 2 == 0 { writer.writeLittleEndian(value) } else { writer.writeBigEndian(value) }
            }
            var reader = ReadBuffer(writer.makeMemoryBuffer())
            for (index, value) in values.enumerated() {
                let read: Int64 = index % 2 == 0 ? try reader.readLittleEndian() : try reader.readBigEndian()
                #expect(read == value)
            }
            #expect(reader.isAtEnd)
        }
    }

    @Test func resetKeepsNothing() {
        var writer = WriteBuffer()
        writer.write(repeating: 7, count: 100)
        writer.reset()
        #expect(writer.count == 0)
    }
}
