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
