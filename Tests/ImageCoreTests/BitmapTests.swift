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

    /// Pixel bytes that cover every byte value in each channel, with transparent and opaque pixels mixed in.
    static func pixels(count: Int, seed: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for i in 0..<count {
            switch (i + seed) % 5 {
            case 0: bytes += [0, 0, 0, 0]  // transparent
            case 1:  // opaque
                bytes += [UInt8(truncatingIfNeeded: i * 7), 0x80, UInt8(truncatingIfNeeded: 255 - i), 255]
            default:
                bytes += (0..<4).map { UInt8(truncatingIfNeeded: (i + seed) * 73 + $0 * 151 + $0 * i) }
            }
        }
        return bytes
    }

    /// The expected swap, byte by byte: B, G, R, A → R, G, B, A.
    static func swappedBytes(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        for i in stride(from: 0, to: bytes.count - 3, by: 4) {
            out[i] = bytes[i + 2]
            out[i + 2] = bytes[i]
        }
        return out
    }

    @Test func knownPixels() {
        var bitmap = Bitmap(
            width: 3, height: 1, bytesPerRow: 12,
            premultipliedRGBA: [10, 20, 30, 255, 0, 0, 0, 0, 0xFF, 0x01, 0x00, 0x80])!
        bitmap.swapRedAndBlue()
        #expect(bitmap.pixels == [30, 20, 10, 255, 0, 0, 0, 0, 0x00, 0x01, 0xFF, 0x80])
    }

    // Packed bitmaps are swapped as one run of words: every count from 1 to 40 pixels (the vectorized loop's
    // remainders), in one row and in several rows.
    @Test(arguments: 1...40)
    func packedRunsOfAnyLength(pixels count: Int) {
        for (width, height) in [(count, 1), (1, count), (count, 3)] {
            let bytes = Self.pixels(count: width * height, seed: count)
            var bitmap = Bitmap(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: bytes)!
            bitmap.swapRedAndBlue()
            #expect(bitmap.pixels == Self.swappedBytes(bytes), "\(width)×\(height)")
            bitmap.swapRedAndBlue()
            #expect(bitmap.pixels == bytes, "twice restores \(width)×\(height)")
        }
    }

    // Padded rows, aligned (stride a multiple of 4) or not: pixels swapped, padding bytes untouched.
    @Test(arguments: [(7, 32), (7, 31), (9, 37), (1, 5), (13, 64)])
    func paddedRowsKeepTheirPadding(width: Int, stride: Int) {
        let height = 3
        let bytes = Self.pixels(count: stride * height / 4 + 1, seed: width).prefix(stride * height).map { $0 }
        var bitmap = Bitmap(width: width, height: height, bytesPerRow: stride, premultipliedRGBA: bytes)!
        bitmap.swapRedAndBlue()
        for y in 0..<height {
            let row = y * stride
            let expected = Self.swappedBytes(Array(bytes[row..<row + width * 4]))
            #expect(Array(bitmap.pixels[row..<row + width * 4]) == expected, "row \(y)")
            #expect(bitmap.pixels[row + width * 4..<row + stride] == bytes[row + width * 4..<row + stride])
        }
        let converted = Bitmap(width: width, height: height, bytesPerRow: stride, premultipliedBGRA: bytes)!
        #expect(bitmap.packedRGBA() == converted.packedRGBA())
    }

    @Test func emptyBitmapsAreLeftAlone() {
        var empty = Bitmap(width: 0, height: 4)
        empty.swapRedAndBlue()
        #expect(empty.pixels.isEmpty)
        var noRows = Bitmap(width: 4, height: 0)
        noRows.swapRedAndBlue()
        #expect(noRows.pixels.isEmpty)
    }
}
