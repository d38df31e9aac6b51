import Foundation
import ImageCore
import MediaTestSupport
import Testing

/// The pixel cap follows the input's size (or the caller's explicit cap): a few kilobytes cannot claim hundreds of
/// megabytes of RGBA.
@Suite struct PNGLimitTests {
    @Test func anEightKilobytePNGOf8000By8000IsRefusedFromItsHeader() throws {
        let png = HostileMedia.blackPNG(width: 8000, height: 8000)
        #expect(png.count < 9_000)
        // libpng itself reads the header as a valid 64-megapixel image.
        let start = Date()
        let limit = PNGCodec.defaultMaxPixels(inputSize: png.count)
        #expect(
            thrownError { try PNGCodec.decode(png) } as? PNGError
                == .tooLarge(width: 8000, height: 8000, limit: limit, inputSize: png.count))
        #expect(Date().timeIntervalSince(start) < 1)
        let message = PNGError.tooLarge(width: 8000, height: 8000, limit: limit, inputSize: png.count).description
        #expect(message.contains("8000×8000") && message.contains("IHDR") && message.contains("maxPixels"))
    }

    @Test func aCallerWhoExpectsAHugeSparseImageSaysSo() throws {
        // 3000×3000 of 1-bit black packs into about a kilobyte: over the default, decoded when the caller allows it.
        let png = HostileMedia.blackPNG(width: 3000, height: 3000)
        #expect(png.count < 2_000)
        #expect(thrownError { try PNGCodec.decode(png) } is PNGError)
        let bitmap = try PNGCodec.decode(png, maxPixels: 9_000_000)
        #expect(bitmap.size == PixelSize(width: 3000, height: 3000))
        #expect(bitmap[2999, 2999] == RGBA(r: 0, g: 0, b: 0, a: 255))
    }

    @Test func theDefaultCapGrowsWithTheInputUpTo64Megapixels() {
        #expect(PNGCodec.defaultMaxPixels(inputSize: 0) == 4 << 20)
        #expect(PNGCodec.defaultMaxPixels(inputSize: 8_192) == 8 << 20)
        #expect(PNGCodec.defaultMaxPixels(inputSize: 1 << 20) == 64 << 20)
        #expect(PNGCodec.defaultMaxPixels(inputSize: .max) == 64 << 20)
    }

    /// Every 8-bit image stays within the default, even flat colour at deflate's best ratio.
    @Test func aFlatEightBitImageAtDeflatesLimitStillDecodes() throws {
        var flat = Bitmap(width: 2500, height: 2500)
        for i in stride(from: 0, to: flat.pixels.count, by: 4) { flat.pixels[i] = 90; flat.pixels[i + 3] = 255 }
        let png = PNGCodec.encode(flat)
        #expect(png.count * PNGCodec.pixelsPerInputByte >= 2500 * 2500)
        #expect(try PNGCodec.decode(png) == flat)
    }
}

