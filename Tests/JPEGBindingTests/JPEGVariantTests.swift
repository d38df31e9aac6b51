import ImageCore
import JPEGBinding
import MediaTestSupport
import Testing

/// Files JPEGEncoder does not write, made with TurboJPEG's C API (`Tests/MediaFixtures/turbojpeg-make.c`):
/// four-component CMYK, progressive, restart markers.
@Suite struct JPEGVariantTests {
    /// Adobe CMYK, stored inverted, in quadrants: red, green / blue, black.
    @Test func cmykIsConvertedToRGB() throws {
        let jpeg = try JPEGSamples.made("cmyk", width: 32, height: 32)
        let info = try JPEGDecoder.info(jpeg)
        #expect(info.colorspace == .ycck || info.colorspace == .cmyk)
        let bitmap = try JPEGDecoder.decode(jpeg)
        #expect(bitmap.size == PixelSize(width: 32, height: 32))
        let expected = [
            (8, 8, RGBA(r: 255, g: 0, b: 0, a: 255)), (24, 8, RGBA(r: 0, g: 255, b: 0, a: 255)),
            (8, 24, RGBA(r: 0, g: 0, b: 255, a: 255)), (24, 24, RGBA(r: 0, g: 0, b: 0, a: 255)),
        ]
        for (x, y, colour) in expected {
            let p = bitmap[x, y]
            let off = abs(Int(p.r) - Int(colour.r)) + abs(Int(p.g) - Int(colour.g)) + abs(Int(p.b) - Int(colour.b))
            #expect(off <= 12 && p.a == 255, "(\(x), \(y)) is \(p), expected about \(colour)")
        }
    }

    @Test(arguments: ["progressive", "restart"])
    func variantsDecodeLikeTheBaselineFile(_ kind: String) throws {
        let jpeg = try JPEGSamples.made(kind, width: 48, height: 40)
        let bitmap = try JPEGDecoder.decode(jpeg)
        #expect(bitmap.size == PixelSize(width: 48, height: 40))
        // The maker draws red rising to the right and green rising downwards.
        #expect(bitmap[2, 20].r < 30 && bitmap[45, 20].r > 225)
        #expect(bitmap[24, 2].g < 30 && bitmap[24, 37].g > 225)
        // Cut inside the scans, both are errors as the baseline file is.
        #expect(thrownError { try JPEGDecoder.decode(Array(jpeg.dropLast(60))) } is JPEGError)
    }
}
