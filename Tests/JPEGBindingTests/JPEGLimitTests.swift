import Foundation
import ImageCore
import JPEGBinding
import MediaTestSupport
import Testing

/// The pixel cap is checked against the frame header before anything is decompressed or allocated, and by default
/// it follows the input's size.
@Suite struct JPEGLimitTests {
    /// A 600-byte file whose SOF claims 60000×60000 (3.6 gigapixels, 14.4 GB of RGBA) is refused from its header:
    /// at once, whatever cap applies, because the error is the header check's and not a failed decompression.
    @Test func aHeaderClaiming60000By60000IsRefusedBeforeDecompressing() throws {
        let jpeg = try #require(JPEGSamples.claiming(width: 60_000, height: 60_000, from: try JPEGSamples.small()))
        let info = try JPEGDecoder.info(jpeg)
        #expect(info.width == 60_000 && info.height == 60_000)
        let start = Date()
        let limit = JPEGDecoder.defaultMaxPixels(inputSize: jpeg.count)
        #expect(
            thrownError { try JPEGDecoder.decode(jpeg) } as? JPEGError
                == .tooLarge(width: 60_000, height: 60_000, limit: limit, inputSize: jpeg.count))
        #expect(
            thrownError { try JPEGDecoder.decode(jpeg, maxPixels: 64 << 20) } as? JPEGError
                == .tooLarge(width: 60_000, height: 60_000, limit: 64 << 20, inputSize: jpeg.count))
        #expect(Date().timeIntervalSince(start) < 1)
        let message = JPEGError.tooLarge(width: 60_000, height: 60_000, limit: limit, inputSize: jpeg.count).description
        #expect(message.contains("60000×60000") && message.contains("SOF") && message.contains("maxPixels"))
    }

    /// 3000×3000 claimed by a 600-byte file is over the input-relative default (4 megapixels for so few bytes),
    /// and decodes — as far as its scans go — only when the caller allows that many pixels.
    @Test func theDefaultCapFollowsTheInputSize() throws {
        let jpeg = try #require(JPEGSamples.claiming(width: 3000, height: 3000, from: try JPEGSamples.small()))
        #expect(
            thrownError { try JPEGDecoder.decode(jpeg) } as? JPEGError
                == .tooLarge(width: 3000, height: 3000, limit: 4 << 20, inputSize: jpeg.count))
        // With the cap raised, libjpeg starts on the scans and finds them far too short.
        guard
            case .corrupt(.pixels, _)? = thrownError({ try JPEGDecoder.decode(jpeg, maxPixels: 9_000_000) })
                as? JPEGError
        else {
            Issue.record("a lying header must fail in the scans once the cap allows it")
            return
        }
        #expect(JPEGDecoder.defaultMaxPixels(inputSize: 0) == 4 << 20)
        #expect(JPEGDecoder.defaultMaxPixels(inputSize: 8_192) == 8 << 20)
        #expect(JPEGDecoder.defaultMaxPixels(inputSize: 1 << 20) == 64 << 20)
        #expect(JPEGDecoder.defaultMaxPixels(inputSize: .max) == 64 << 20)
    }

    /// A flat picture, JPEG's best case with standard Huffman tables, stays well inside the default cap.
    @Test func aFlatPictureStaysInsideTheDefault() throws {
        var flat = Bitmap(width: 2500, height: 2500)
        for i in stride(from: 0, to: flat.pixels.count, by: 4) {
            flat.pixels[i] = 90
            flat.pixels[i + 3] = 255
        }
        let jpeg = try JPEGEncoder.encode(flat, quality: 87)
        #expect(jpeg.count * JPEGDecoder.pixelsPerInputByte >= 2500 * 2500)
        #expect(try JPEGDecoder.decode(jpeg).size == PixelSize(width: 2500, height: 2500))
    }
}
