import ImageCore
import StickerFormats
import Testing
import WebPBinding

@Suite struct WebPStickerValidationTests {
    @Test func sizesFollowTelegramsRule() throws {
        let good = try WebPEncoder.encode(Bitmap(width: 512, height: 300), .lossless)
        #expect(try WebPStickerValidation.violations(good) == [])
        #expect(StickerFormat.detect(good) == .webp)
        let bad = try WebPEncoder.encode(Bitmap(width: 400, height: 300), .lossless)
        #expect(try WebPStickerValidation.violations(bad).count == 1)
        #expect(throws: WebPError.self) { try WebPStickerValidation.violations(Array(good.prefix(10))) }
        #expect(StickerFormat.detect(Array("hello".utf8)) == nil)
        #expect(StickerFormat.detect(PNGCodec.encode(Bitmap(width: 1, height: 1))) == .png)
    }
}
