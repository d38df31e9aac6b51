import Foundation
import ImageCore
import JPEGBinding
import MediaResources
import MediaTestSupport
import PhotoSizes
import SyncCore
import Testing

/// Photos prepared for sending as Telegram-iOS prepares them: the longer side at most 1280, never scaled up, JPEG.
@Suite struct OutgoingPhotoTests {
    /// Prepares `bytes`, checks the result decodes to the stated dimensions and returns the decoded picture.
    static func prepared(_ bytes: [UInt8], expect size: (Int, Int)) throws -> (PreparedPhoto, Bitmap) {
        let photo = try OutgoingPhoto.prepare(bytes)
        #expect(photo.dimensions == PixelDimensions(width: Int32(size.0), height: Int32(size.1)))
        #expect(JPEGDecoder.isJPEG(photo.jpeg))
        let decoded = try JPEGDecoder.decode(photo.jpeg)
        #expect(decoded.width == size.0 && decoded.height == size.1)
        return (photo, decoded)
    }

    /// The left half one premultiplied RGBA pixel, the right half another, written straight into the buffer.
    static func halves(width: Int, height: Int, left: [UInt8], right: [UInt8]) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let pixel = x < width / 2 ? left : right
                    for channel in 0..<4 { pixels[(y * width + x) * 4 + channel] = pixel[channel] }
                }
            }
        }
        return bitmap
    }

    @Test func aLandscapeCameraPhotoIsScaledTo1280() throws {
        let source = Photo.drawn(width: 4000, height: 3000)
        let (_, decoded) = try Self.prepared(try JPEGEncoder.encode(source, quality: 90), expect: (1280, 960))
        // The same picture, smaller: the mean colour stays within a few levels of the drawing made at that size.
        let before = Photo.meanColor(Photo.drawn(width: 1280, height: 960)), after = Photo.meanColor(decoded)
        for channel in 0..<3 { #expect(abs(before[channel] - after[channel]) < 4, "channel \(channel)") }
    }

    @Test func aPortraitPhotoKeepsItsAspect() throws {
        let source = try JPEGEncoder.encode(Photo.drawn(width: 1500, height: 2000), quality: 90)
        _ = try Self.prepared(source, expect: (960, 1280))
    }

    @Test func anEXIFTurnedJPEGIsTurnedBeforeScaling() throws {
        // Stored 2000×1000, left half red and right half blue, marked "turn right" (orientation 6): a 1000×2000 photo.
        let stored = Self.halves(width: 2000, height: 1000, left: [255, 0, 0, 255], right: [0, 0, 255, 255])
        let jpeg = try JPEGEncoder.encode(stored, quality: 92)
        // APP1 "Exif", little-endian TIFF, IFD0 with one entry: Orientation (0x0112) SHORT 1 = 6.
        let tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1, 0, UInt8(payload.count + 2)] + payload
        let (_, decoded) = try Self.prepared(Array(jpeg.prefix(2)) + app1 + jpeg.dropFirst(2), expect: (640, 1280))
        // Turned right: the stored left half (red) is now the top half.
        #expect(decoded[320, 200].r > 230 && decoded[320, 200].b < 30)
        #expect(decoded[320, 1080].b > 230 && decoded[320, 1080].r < 30)
    }

    @Test func aPNGWithAlphaIsFlattenedOntoWhite() throws {
        // 3000×1500: the left half opaque green, the right half fully transparent.
        let picture = Self.halves(width: 3000, height: 1500, left: [0, 200, 0, 255], right: [0, 0, 0, 0])
        let (_, decoded) = try Self.prepared(PNGCodec.encode(picture), expect: (1280, 640))
        #expect(decoded[300, 320].g > 180 && decoded[300, 320].r < 30)
        let white = decoded[1000, 320]
        #expect(white.r > 245 && white.g > 245 && white.b > 245 && white.a == 255)
    }

    @Test func aSmallPhotoIsNotScaledUp() throws {
        let source = Photo.drawn(width: 800, height: 600)
        let (photo, decoded) = try Self.prepared(try JPEGEncoder.encode(source, quality: 95), expect: (800, 600))
        #expect(try #require(Photo.meanAbsoluteDifference(source, decoded)) < 6)
        #expect(photo.jpeg.count < 800 * 600, "quality \(OutgoingPhoto.quality) compresses")
    }

    @Test func aFileIsReadAndAMissingOneIsTyped() throws {
        let folder = Tools.scratch("outgoing-photo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("p.png").path
        try Data(PNGCodec.encode(Photo.drawn(width: 2560, height: 200))).write(to: URL(fileURLWithPath: path))
        #expect(try OutgoingPhoto.prepare(path: path).dimensions == PixelDimensions(width: 1280, height: 100))
        #expect(throws: OutgoingPhotoError.self) { try OutgoingPhoto.prepare(path: folder.path + "/missing.png") }
    }

    @Test func badInputIsRefusedWithTheTelegramError() throws {
        func refusal(_ bytes: [UInt8]) -> String? {
            do {
                _ = try OutgoingPhoto.prepare(bytes)
                return nil
            } catch {
                guard case .invalidPicture(let photoError) = error else { return "\(error)" }
                return photoError.telegramError
            }
        }
        #expect(refusal(Array("definitely not a picture".utf8)) == "PHOTO_EXT_INVALID")
        #expect(refusal([]) == "PHOTO_EXT_INVALID")
        let jpeg = try JPEGEncoder.encode(Photo.drawn(width: 64, height: 64), quality: 80)
        // A JPEG cut after its header: the pixels are missing.
        #expect(refusal(Array(jpeg.prefix(jpeg.count / 2))) == "IMAGE_PROCESS_FAILED")
        // Flipped bytes all through the scan.
        var damaged = jpeg
        for index in stride(from: 700, to: damaged.count - 2, by: 7) { damaged[index] ^= 0x5A }
        #expect(refusal(damaged) == "IMAGE_PROCESS_FAILED")
        // 21:1 breaks the aspect rule before anything is decoded.
        #expect(refusal(PNGCodec.encode(Photo.drawn(width: 2100, height: 100))) == "PHOTO_INVALID_DIMENSIONS")
        #expect(refusal([UInt8](repeating: 0xFF, count: (10 << 20) + 1)) == "PHOTO_SAVE_FILE_INVALID")
    }
}
