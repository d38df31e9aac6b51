import Foundation
import OpusBinding
import Testing

@Suite struct OggOpusCorruptionTests {
    static func note() throws -> [UInt8] {
        let writer = try OggOpusWriter(serial: 42)
        try writer.write((0..<48_000).map { Int16(8000 * sin(Double($0) / 20)) })
        return try writer.finish()
    }

    @Test func hundredCorruptVariantsGiveErrors() throws {
        let ogg = try Self.note()
        let pages = Audio.pages(ogg)
        var state: UInt64 = 2024
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var errors = 0
        for index in 0..<100 {
            var bytes = ogg
            switch index % 5 {
            case 0: bytes = Array(bytes.prefix(next() % (bytes.count - 1)))
            case 1: bytes[next() % bytes.count] ^= UInt8(1 << (next() % 8))
            case 2:
                // OpusTags claims a vendor string of 2 GB; the page CRC is fixed so only our check can catch it.
                let page = pages[1]
                bytes[page.offset + 27 + Int(bytes[page.offset + 26]) + 8 + 3] = 0x7F
                Audio.fixCRC(&bytes, page: page)
            case 3:
                // An audio page's lacing says its body is longer than the file.
                let page = pages[2 + next() % (pages.count - 2)]
                bytes[page.offset + 27] = 255
                Audio.fixCRC(&bytes, page: page)
            default: for _ in 0..<4 { bytes[next() % bytes.count] = UInt8(truncatingIfNeeded: next()) }
            }
            do {
                _ = try OggOpusReader.decode(bytes)
            } catch {
                errors += 1
            }
        }
        #expect(errors == 100)
    }

    @Test func decodeCapRefusesAStreamClaimingMore() throws {
        let note = try Self.note()
        #expect(throws: OpusError.claimsTooLong(claimedSamples: 48_000, limitSamples: 4_800, inputSize: note.count)) {
            try OggOpusReader.decode(note, maxSamples: 4_800)
        }
        #expect(try OggOpusReader.decode(note, maxSamples: 48_000).frameCount == 48_000)
    }

    @Test func notOggIsRejected() {
        #expect(throws: OpusError.self) { try OggOpusReader.decode(Array("RIFF....WAVE".utf8)) }
        #expect(throws: OpusError.self) { try OggOpusReader.decode([]) }
    }
}
