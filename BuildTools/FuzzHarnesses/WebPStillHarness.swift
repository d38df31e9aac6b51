import ImageCore
import WebPBinding

extension FuzzHarness {
    /// WebP bytes → `WebPDecoder.info` and `decode` (VP8 and VP8L bitstreams, alpha, the first frame of an
    /// animation) under a 256×256 cap; a decoded bitmap must have the header's size and its pixels must convert.
    public static let webpStill = FuzzHarness(
        name: "webp-still", summary: "WebP bytes → WebPDecoder.info / decode (VP8, VP8L, alpha) into premultiplied RGBA"
    ) { input in
        .of {
            let info = try WebPDecoder.info(input)
            let bitmap = try WebPDecoder.decode(input, maxPixels: 256 * 256)
            precondition(info.isAnimated || (bitmap.width == info.width && bitmap.height == info.height))
            precondition(bitmap.pixels.count == bitmap.height * bitmap.bytesPerRow, "pixel storage of the wrong size")
            _ = bitmap.straightRGBA()
        }
    }
}
