import Foundation
import ImageCore
import JPEGBinding
import MediaTestSupport
import TestVectors
import Testing

/// Bad bytes are errors that say what and where, never traps and never half-grey pictures.
@Suite struct JPEGCorruptionTests {
    @Test func bytesThatAreNoJPEGAreRefusedAtTheHeader() {
        let samples: [[UInt8]] = [
            [], [0xFF], [0xFF, 0xD8], [0xFF, 0xD8, 0xFF], Array("GIF89a".utf8), [0x89, 0x50, 0x4E, 0x47],
        ]
        for bytes in samples {
            let error = thrownError { try JPEGDecoder.decode(bytes) } as? JPEGError
            guard case .corrupt(.header, let reason)? = error else {
                Issue.record("\(bytes) gave \(String(describing: error))")
                continue
            }
            #expect(!reason.isEmpty)
            #expect(thrownError { try JPEGDecoder.info(bytes) } is JPEGError)
        }
        #expect(
            (thrownError { try JPEGDecoder.decode([]) } as? JPEGError)?.description
                == "corrupt JPEG (while reading its header markers): no bytes")
    }

    /// Every prefix of a valid file (cut anywhere before its EOI marker ends) is an error, in the header or in the
    /// scans: libjpeg's "Premature end of JPEG file" warning is not accepted with the rest painted grey.
    @Test func everyTruncationIsAnError() throws {
        let jpeg = try JPEGSamples.small()
        #expect(try JPEGDecoder.decode(jpeg).size == PixelSize(width: 32, height: 24))
        var stages: Set<String> = []
        for length in 0..<jpeg.count {
            let error = thrownError { try JPEGDecoder.decode(Array(jpeg.prefix(length))) } as? JPEGError
            guard case .corrupt(let stage, _)? = error else {
                Issue.record("a prefix of \(length) of \(jpeg.count) bytes gave \(String(describing: error))")
                continue
            }
            stages.insert(stage.rawValue)
        }
        #expect(stages == ["header", "pixels"])
        let scanError = thrownError { try JPEGDecoder.decode(Array(jpeg.dropLast(40))) } as? JPEGError
        #expect(scanError?.description.contains("while reading its scans into pixels") == true)
    }

    /// 1,000 random bit flips, byte overwrites and cuts of a valid file: each decodes or throws; what decodes has
    /// the header's size.
    @Test func damagedFilesNeverTrap() throws {
        let jpeg = try JPEGSamples.small()
        var generator = SeededGenerator(seed: 0x4A504547)
        var outcomes = (decoded: 0, refused: 0)
        for round in 0..<1_000 {
            var bytes = jpeg
            switch round % 3 {
            case 0:
                let bit = Int.random(in: 0..<bytes.count * 8, using: &generator)
                bytes[bit / 8] ^= UInt8(1 << (bit % 8))
            case 1:
                for _ in 0..<4 {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = .random(in: 0...255, using: &generator)
                }
            default:
                bytes.removeSubrange(Int.random(in: 2..<bytes.count, using: &generator)..<bytes.count)
            }
            do {
                let bitmap = try JPEGDecoder.decode(bytes, maxPixels: 1 << 20)
                let info = try JPEGDecoder.info(bytes)
                #expect(bitmap.size == PixelSize(width: info.width, height: info.height))
                outcomes.decoded += 1
            } catch {
                outcomes.refused += 1
            }
        }
        #expect(outcomes.refused > 100, "\(outcomes)")
        #expect(outcomes.decoded > 10, "\(outcomes)")
    }
}
