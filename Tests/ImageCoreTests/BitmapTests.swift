import ImageCore
import Testing

@Suite struct BitmapTests {
    @Test func premultiplyThenUnpremultiplyIsStable() {
        // For every alpha and color, straight → premultiplied → straight → premultiplied is a fixed point.
        for a in 0...255 {
            var straight: [UInt8] = []
            for c in 0...255 { straight += [UInt8(c), UInt8(255 - c), UInt8(c / 2), UInt8(a)] }
            let once = Bitmap(width: 256, height: 1, straightRGBA: straight)!
            let twice = Bitmap(width: 256, height: 1, straightRGBA: once.straightRGBA())!
            #expect(once == twice, "alpha \(a)")
        }
    }

    @Test func bgraConversionSwapsChannels() {
        let bgra: [UInt8] = [1, 2, 3, 4, 9, 9, 9, 9, 5, 6, 7, 8, 9, 9, 9, 9]
        let bitmap = Bitmap(width: 1, height: 2, bytesPerRow: 8, premultipliedBGRA: bgra)!
        #expect(bitmap[0, 0] == RGBA(r: 3, g: 2, b: 1, a: 4))
        #expect(bitmap[0, 1] == RGBA(r: 7, g: 6, b: 5, a: 8))
    }

    @Test func rejectsShortPixelData() {
        #expect(Bitmap(width: 2, height: 2, straightRGBA: [0, 0, 0]) == nil)
        #expect(Bitmap(width: 2, height: 2, bytesPerRow: 8, premultipliedRGBA: [UInt8](repeating: 0, count: 15)) == nil)
    }

    @Test func flattenOverWhite() {
        var bitmap = Bitmap(width: 1, height: 1)
        bitmap[0, 0] = RGBA(r: 0, g: 0, b: 0, a: 128)
        #expect(bitmap.flattened(over: (255, 255, 255))[0, 0] == RGBA(r: 127, g: 127, b: 127, a: 255))
    }
}

@Suite struct SwapTests {
    @Test func swapMatchesTheBGRAInitializer() {
        let bgra: [UInt8] = (0..<(5 * 3 * 4 + 12)).map { UInt8(truncatingIfNeeded: $0 * 37) }
        var swapped = Bitmap(width: 5, height: 3, bytesPerRow: 24, premultipliedRGBA: bgra)!
        swapped.swapRedAndBlue()
        let converted = Bitmap(width: 5, height: 3, bytesPerRow: 24, premultipliedBGRA: bgra)!
        #expect(swapped.packedRGBA() == converted.packedRGBA())
    }
}
