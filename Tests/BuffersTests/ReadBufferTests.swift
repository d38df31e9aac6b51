import Buffers
import Testing

@Suite struct ReadBufferTests {
    @Test func readsIntegersInBothByteOrders() throws {
        var reader = ReadBuffer([0x01, 0x02, 0x03, 0x04, 0x01, 0x02, 0x03, 0x04, 0xFF])
        #expect(try reader.readLittleEndian(UInt32.self) == 0x0403_0201)
        #expect(try reader.readBigEndian(UInt32.self) == 0x0102_0304)
        #expect(try reader.readUInt8() == 0xFF)
        #expect(reader.isAtEnd)
    }

    @Test func readPastEndIsAnErrorAndDoesNotMove() {
        var reader = ReadBuffer([1, 2, 3])
        let failure1 = failure(of: { () throws(ReadBufferError) in _ = try reader.readLittleEndian(Int32.self) })
        #expect(failure1 == .outOfBounds(offset: 0, requested: 4, available: 3))
        #expect(reader.offset == 0)
        let failure2 = failure(of: { () throws(ReadBufferError) in _ = try reader.readBytes(10) })
        #expect(failure2 == .outOfBounds(offset: 0, requested: 10, available: 3))
    }

    @Test func negativeCountsAreRejected() {
        var reader = ReadBuffer([1, 2, 3])
        let failure3 = failure(of: { () throws(ReadBufferError) in _ = try reader.readBytes(-1) })
        #expect(failure3 != nil)
        let failure4 = failure(of: { () throws(ReadBufferError) in _ = try reader.skip(-5) })
        #expect(failure4 != nil)
        let failure5 = failure(of: { () throws(ReadBufferError) in _ = try reader.seek(to: 4) })
        #expect(failure5 != nil)
        let failure6 = failure(of: { () throws(ReadBufferError) in _ = try reader.seek(to: -1) })
        #expect(failure6 != nil)
    }

    @Test func claimedLengthIsCheckedBeforeTheData() throws {
        var reader = ReadBuffer([1, 2, 3, 4])
        let failure7 = failure(of: { () throws(ReadBufferError) in _ = try reader.readBytes(claimedLength: 1 << 40, limit: 1024) })
        #expect(failure7 == .lengthTooLarge(offset: 0, claimed: 1 << 40, limit: 1024))
        let failure8 = failure(of: { () throws(ReadBufferError) in _ = try reader.readBytes(claimedLength: 8, limit: 1024) })
        #expect(failure8 == .outOfBounds(offset: 0, requested: 8, available: 4))
        #expect(try reader.readBytes(claimedLength: 4, limit: 4) == [1, 2, 3, 4])
    }

    /// Every prefix of a valid record either decodes or fails cleanly: no read ever traps.
    @Test func everyTruncationFailsCleanly() throws {
        var writer = WriteBuffer()
        writer.writeLittleEndian(Int32(-5))
        writer.writeBigEndian(UInt64.max - 1)
        writer.writeDouble(3.25)
        writer.write(contentsOf: [9, 8, 7])
        let full = writer.bytes
        for length in 0...full.count {
            var reader = ReadBuffer(Array(full.prefix(length)))
            let decoded: (Int32, UInt64, Double, [UInt8])? = try? (
                reader.readLittleEndian(), reader.readBigEndian(), reader.readDouble(), reader.readBytes(3)
            )
            if length == full.count {
                #expect(decoded?.0 == -5 && decoded?.1 == UInt64.max - 1 && decoded?.2 == 3.25)
                #expect(decoded?.3 == [9, 8, 7])
            } else {
                #expect(decoded == nil, "prefix \(length) decoded")
            }
        }
    }

    @Test func withBytesSeesTheRightSlice() throws {
        var reader = ReadBuffer([0, 1, 2, 3, 4, 5])
        try reader.skip(2)
        let sum = try reader.withBytes(3) { raw in raw.reduce(0) { $0 + Int($1) } }
        #expect(sum == 2 + 3 + 4)
        #expect(reader.offset == 5)
        #expect(reader.peekUInt8() == 5)
    }
}

/// Runs `body` and returns the error it threw, or `nil` when it returned.
private func failure<T>(of body: () throws(ReadBufferError) -> T) -> ReadBufferError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
