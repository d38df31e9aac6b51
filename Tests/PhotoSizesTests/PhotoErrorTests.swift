import Foundation
import ImageCore
import JPEGBinding
import MediaTestSupport
import PhotoSizes
import Testing

/// Refusals carry Telegram's error names and say what was wrong; all are made before any pixel is decoded.
@Suite struct PhotoErrorTests {
    static func error(_ bytes: [UInt8], limits: PhotoLimits = .telegram) -> PhotoError? {
        thrownError { try PhotoSizes.make(from: bytes, limits: limits) } as? PhotoError
    }

    @Test func unknownFormatsArePHOTO_EXT_INVALID() {
        for bytes in [[], Array("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8), Array("BM6\0\0\0".utf8), [0xFF, 0xD8, 0x00]] {
            let error = Self.error(bytes)
            #expect(error?.telegramError == "PHOTO_EXT_INVALID", "\(bytes)")
        }
        #expect(
            Self.error(Array("GIF89a".utf8))?.description
                == "PHOTO_EXT_INVALID: the bytes are not JPEG, PNG or WebP (they start with 47 49 46 38 39 61); "
                + "convert the picture to one of those")
    }

    @Test func dimensionsOutsideTelegramsBoundsArePHOTO_INVALID_DIMENSIONS() throws {
        let small = try JPEGEncoder.encode(Photo.drawn(width: 32, height: 24), quality: 80)
        // Headers claiming sizes the scans do not hold: refused from the header, before decoding.
        let cases: [(Int, Int, String)] = [
            (5001, 5000, "width + height must be at most 10000"),
            (60_000, 60_000, "width + height must be at most 10000"),
            (2100, 100, "the longer side must be at most 20 times the shorter one"),
            (10, 201, "the longer side must be at most 20 times the shorter one"),
        ]
        for (width, height, rule) in cases {
            let jpeg = try #require(Self.claiming(width: width, height: height, from: small))
            #expect(Self.error(jpeg) == .invalidDimensions(width: width, height: height, rule: rule))
            #expect(Self.error(jpeg)?.telegramError == "PHOTO_INVALID_DIMENSIONS")
        }
        // Exactly at the bounds is allowed: 20:1 decodes into sizes.
        let strip = try JPEGEncoder.encode(Photo.drawn(width: 400, height: 20), quality: 80)
        #expect(try PhotoSizes.make(from: strip).sizes.last?.width == 400)
        // A PNG's IHDR is read the same way.
        var png = PNGCodec.encode(Photo.drawn(width: 8, height: 8))
        png.replaceSubrange(16..<24, with: [0, 0, 0x27, 0x10, 0, 0, 0, 1])  // 10000×1
        #expect(Self.error(png)?.telegramError == "PHOTO_INVALID_DIMENSIONS")
    }

    @Test func tooManyBytesArePHOTO_SAVE_FILE_INVALID() throws {
        let jpeg = try JPEGEncoder.encode(Photo.drawn(width: 64, height: 64), quality: 80)
        let limits = PhotoLimits(maxBytes: jpeg.count - 1, maxSideSum: 10_000, maxAspectRatio: 20)
        #expect(Self.error(jpeg, limits: limits) == .tooManyBytes(count: jpeg.count, limit: jpeg.count - 1))
        #expect(Self.error(jpeg, limits: limits)?.telegramError == "PHOTO_SAVE_FILE_INVALID")
        #expect(
            Self.error([UInt8](repeating: 0, count: (10 << 20) + 1))
                == .tooManyBytes(count: (10 << 20) + 1, limit: 10 << 20))
    }

    @Test func undecodableBytesAreIMAGE_PROCESS_FAILED() throws {
        let jpeg = try JPEGEncoder.encode(Photo.drawn(width: 64, height: 64), quality: 80)
        let png = PNGCodec.encode(Photo.drawn(width: 64, height: 64))
        let samples: [(PictureFormat, [UInt8])] = [
            (.jpeg, Array(jpeg.prefix(jpeg.count - 50))),  // cut in the scans
            (.jpeg, Array(jpeg.prefix(100))),  // cut in the header
            (.png, Array(png.prefix(20))),  // no whole IHDR
            (.png, Array(png.prefix(png.count - 30))),  // cut in the pixels
            (.webp, Array("RIFF\u{10}\0\0\0WEBPVP8 ".utf8) + [UInt8](repeating: 7, count: 12)),
        ]
        for (format, bytes) in samples {
            let error = Self.error(bytes)
            guard case .processingFailed(let reported, let reason)? = error else {
                Issue.record("\(format) sample gave \(String(describing: error))")
                continue
            }
            #expect(reported == format && !reason.isEmpty)
            #expect(error?.telegramError == "IMAGE_PROCESS_FAILED")
            #expect(error?.description.hasPrefix("IMAGE_PROCESS_FAILED: the \(format.rawValue) picture") == true)
        }
    }

    /// `jpeg` with its baseline frame header claiming `width` × `height`.
    static func claiming(width: Int, height: Int, from jpeg: [UInt8]) -> [UInt8]? {
        guard let sof = (2..<jpeg.count - 9).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }) else {
            return nil
        }
        var bytes = jpeg
        bytes.replaceSubrange(
            sof + 5..<sof + 9, with: [UInt8(height >> 8), UInt8(height & 255), UInt8(width >> 8), UInt8(width & 255)])
        return bytes
    }
}
