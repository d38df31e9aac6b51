import Testing
import TLRuntime

/// A reader over a range of a buffer (an answer inside a received container): it reads only the range, fails past
/// its end as it would past the end of a buffer, and reports offsets within the whole buffer.
@Suite struct TLReaderRangeTests {
    /// Three values back to back: an int, a string and a long.
    static func buffer() -> (bytes: [UInt8], stringRange: Range<Int>) {
        var writer = TLWriter()
        writer.writeInt32(7)
        writer.writeString("hello, range")
        writer.writeInt64(-1)
        // The int takes 4 bytes; the string 1 length byte and 12 bytes, padded to 16.
        return (writer.takeBytes(), 4..<20)
    }

    @Test func aRangeIsReadAloneAndEndsWhereItEnds() throws {
        let (bytes, range) = Self.buffer()
        var reader = TLReader(bytes, range: range)
        #expect(reader.offset == range.lowerBound && reader.remaining == range.count)
        #expect(try reader.readString() == "hello, range")
        #expect(reader.isAtEnd && reader.remaining == 0)
        // The long after the range is in the buffer, but not the reader's to read.
        #expect(throws: TLDecodingError.truncated(offset: range.upperBound, needed: 8)) { try reader.readInt64() }
    }

    @Test func aLengthThatRunsPastTheRangeIsTruncatedNotRead() throws {
        let (bytes, range) = Self.buffer()
        // The string's range minus its last byte: its declared length now runs past the end.
        var reader = TLReader(bytes, range: range.lowerBound..<(range.upperBound - 1))
        #expect(throws: TLDecodingError.truncated(offset: 4, needed: 16)) { try reader.readString() }
        // The whole buffer still reads as it was written.
        var whole = TLReader(bytes)
        #expect(try whole.readInt32() == 7 && whole.readString() == "hello, range" && whole.readInt64() == -1)
        #expect(whole.isAtEnd)
    }

    @Test func anEmptyRangeIsAtItsEnd() {
        let (bytes, _) = Self.buffer()
        var reader = TLReader(bytes, range: 4..<4)
        #expect(reader.isAtEnd)
        #expect(throws: TLDecodingError.truncated(offset: 4, needed: 4)) { try reader.readInt32() }
    }
}
