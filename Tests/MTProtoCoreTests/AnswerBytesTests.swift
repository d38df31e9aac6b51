import MTProtoApi
import MTProtoCore
import TLRuntime
import Testing

/// `AnswerBytes`: an answer kept as a range of its packet's buffer reads, compares and copies out as the bytes alone.
@Suite struct AnswerBytesTests {
    @Test func aRangeOfABufferIsTheAnswerAlone() throws {
        let pong = MTProto.Pong.pong(.init(msgId: 11, pingId: 22)).serialized()
        let buffer: [UInt8] = [0xAA, 0xBB, 0xCC, 0xDD] + pong + [0xEE, 0xFF, 0x00, 0x11]
        let answer = AnswerBytes(buffer, range: 4..<(4 + pong.count))
        #expect(answer.range.count == pong.count)
        #expect(answer.bytes == pong)
        #expect(answer == AnswerBytes(pong), "equal by content, not by buffer")
        #expect(answer != AnswerBytes(buffer))
        #expect(answer.constructorId == ServiceCodec.constructorId(of: pong))
        var reader = answer.reader()
        guard case .pong(let value) = try MTProto.Pong.parse(&reader) else { throw CancellationError() }
        #expect(value.msgId == 11 && value.pingId == 22)
        #expect(reader.isAtEnd, "the reader stops at the answer's end, before the bytes that follow it")
    }

    @Test func aShortAnswerHasNoConstructorId() {
        #expect(AnswerBytes([1, 2, 3]).constructorId == nil)
        #expect(AnswerBytes([1, 2, 3, 4, 5], range: 1..<4).constructorId == nil)
        #expect(AnswerBytes([1, 2, 3, 4, 5], range: 1..<5).constructorId == 0x0504_0302)
    }
}
