import Foundation
import ImageCore
import JPEGBinding
import MediaTestSupport
import PhotoSizes
import TestVectors
import Testing

/// The stripped thumbnail against a real client's rebuild: Telethon 1.45's `telethon.utils.stripped_photo_to_jpg`
/// (the venv `make deps` makes) pastes its fixed header and footer on our bytes, and the JPEG it returns must be
/// byte for byte the one we describe and decode to the thumbnail's size and picture.
@Suite struct StrippedThumbnailTests {
    /// Telethon's rebuild of each stripped thumbnail (hex in, one per line; hex out).
    static func telethonRebuild(_ thumbnails: [[UInt8]]) throws -> [[UInt8]] {
        let script = """
            import sys
            from telethon.utils import stripped_photo_to_jpg
            for line in sys.stdin.read().split():
                print(stripped_photo_to_jpg(bytes.fromhex(line)).hex())
            """
        let input = thumbnails.map { hex($0) }.joined(separator: "\n")
        let result = try ProcessRunner.run(
            ProcessRunner.venvPython, ["-c", script], input: Data(input.utf8), timeout: 60)
        try #require(result.succeeded, "telethon stripped_photo_to_jpg failed: \(result.errorOutput.suffix(2000))")
        return result.output.split(separator: "\n").map { hex(String($0)) }
    }

    @Test func telethonRebuildsAJPEGOfTheRightSizeAndPicture() throws {
        let shapes = [(30, 20), (90, 90), (1000, 500), (500, 1000), (200, 4000), (1, 1), (41, 7)]
        var sets: [(source: Bitmap, set: PhotoSizeSet)] = []
        for (width, height) in shapes {
            let source = Photo.drawn(width: width, height: height)
            sets.append((source, try PhotoSizes.make(from: JPEGEncoder.encode(source, quality: 95))))
        }
        let rebuilt = try Self.telethonRebuild(sets.map(\.set.stripped.bytes))
        try #require(rebuilt.count == sets.count)
        for ((source, set), jpeg) in zip(sets, rebuilt) {
            let stripped = set.stripped
            #expect(jpeg == stripped.jpeg, "\(source.size): Telethon's rebuild differs from ours")
            // The header Telethon pasted on is the one libjpeg-turbo wrote: the JPEG decodes, to the right size.
            let decoded = try JPEGDecoder.decode(jpeg)
            #expect(decoded.size == PixelSize(width: stripped.width, height: stripped.height))
            #expect(max(stripped.width, stripped.height) == min(40, max(source.width, source.height)))
            // A quality-20 picture of the source: its mean colour is close to the source's.
            if min(stripped.width, stripped.height) >= 8 {
                let (a, b) = (Photo.meanColor(decoded), Photo.meanColor(source))
                for channel in 0..<3 { #expect(abs(a[channel] - b[channel]) < 12, "\(source.size) \(channel)") }
            }
            // Stripping saves the 623-byte header and the 2-byte footer, less the 3-byte prefix.
            #expect(stripped.bytes.count + 622 == jpeg.count)
        }
    }

    @Test func theFormatIsVersionHeightWidthThenTheScan() throws {
        let set = try PhotoSizes.make(from: JPEGEncoder.encode(Photo.drawn(width: 400, height: 100), quality: 90))
        let bytes = set.stripped.bytes
        #expect(Array(bytes.prefix(3)) == [1, 10, 40])
        #expect(set.stripped.height == 10 && set.stripped.width == 40)
        // No marker of the header is left: the body starts with entropy-coded data and ends before EOI.
        #expect(!(bytes[3] == 0xFF && bytes[4] == 0xD8) && Array(bytes.suffix(2)) != [0xFF, 0xD9])
        #expect(StrippedThumbnail(bytes: bytes) == set.stripped)
        #expect(StrippedThumbnail(bytes: [2] + bytes.dropFirst()) == nil)
        #expect(StrippedThumbnail(bytes: [1, 0, 40]) == nil)
    }
}
