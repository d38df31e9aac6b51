import ImageCore
import JPEGBinding
import MediaTestSupport
import PhotoSizes
import Testing
import WebPBinding

/// PNG and WebP uploads become the same JPEG sizes; transparency turns white.
@Suite struct PhotoInputTests {
    @Test func aTransparentPNGBecomesJPEGOnWhite() throws {
        // Left half transparent, right half opaque blue.
        var picture = Bitmap(width: 400, height: 200)
        for y in 0..<200 { for x in 200..<400 { picture[x, y] = RGBA(r: 0, g: 0, b: 255, a: 255) } }
        let set = try PhotoSizes.make(from: PNGCodec.encode(picture))
        #expect(set.format == .png && set.sizes.map(\.type) == [.s, .m, .x])
        let m = try JPEGDecoder.decode(set.sizes[1].jpeg)
        #expect(m.size == PixelSize(width: 320, height: 160))
        let white = m[40, 80], blue = m[280, 80]
        #expect(white.r > 245 && white.g > 245 && white.b > 245, "\(white)")
        #expect(blue.r < 10 && blue.g < 10 && blue.b > 240, "\(blue)")
        #expect(StrippedThumbnailSupport.decodes(set.stripped))
    }

    @Test func aWebPBecomesTheSameSizes() throws {
        let picture = Photo.drawn(width: 500, height: 300)
        let webp = try WebPEncoder.encode(picture, .lossy(quality: 90))
        let set = try PhotoSizes.make(from: webp)
        #expect(set.format == .webp)
        #expect(set.sizes.map { "\($0.type)\($0.width)x\($0.height)" } == ["s100x60", "m320x192", "x500x300"])
    }
}

enum StrippedThumbnailSupport {
    /// Whether the client-side rebuild of `stripped` decodes to its stated size.
    static func decodes(_ stripped: StrippedThumbnail) -> Bool {
        (try? JPEGDecoder.decode(stripped.jpeg).size) == PixelSize(width: stripped.width, height: stripped.height)
    }
}

/// A camera's EXIF orientation is applied: a picture stored 400×200 and marked "turn right" becomes a 200×400 photo.
@Suite struct PhotoOrientationTests {
    @Test func anEXIFTurnedPictureGetsTurnedSizes() throws {
        var stored = Bitmap(width: 400, height: 200)
        for y in 0..<200 {
            for x in 0..<400 {
                stored[x, y] = x < 200 ? RGBA(r: 255, g: 0, b: 0, a: 255) : RGBA(r: 0, g: 0, b: 255, a: 255)
            }
        }
        let jpeg = try JPEGEncoder.encode(stored, quality: 92)
        // APP1 "Exif", little-endian TIFF, IFD0 with one entry: Orientation (0x0112) SHORT 1 = 6.
        let tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1, 0, UInt8(payload.count + 2)] + payload
        let set = try PhotoSizes.make(from: Array(jpeg.prefix(2)) + app1 + jpeg.dropFirst(2))
        #expect(set.width == 200 && set.height == 400)
        #expect(set.sizes.map { "\($0.type)\($0.width)x\($0.height)" } == ["s50x100", "m160x320", "x200x400"])
        // Turned right: the stored left half (red) is now the top half.
        let m = try JPEGDecoder.decode(set.sizes[1].jpeg)
        #expect(m[80, 40].r > 230 && m[80, 40].b < 30)
        #expect(m[80, 280].b > 230 && m[80, 280].r < 30)
        #expect(set.stripped.width == 20 && set.stripped.height == 40)
    }
}
