import ImageCore

extension FuzzHarness {
    /// PNG bytes → `PNGCodec.decode` (libpng's simplified reader: every colour type and bit depth, interlacing,
    /// gamma, the header checks against the input's size) under a 256×256 cap. What decodes is written again and
    /// must read back identical.
    public static let png = FuzzHarness(
        name: "png", summary: "PNG bytes → PNGCodec.decode (libpng, header caps); decoded images round-trip"
    ) { input in
        .of {
            let bitmap = try PNGCodec.decode(input, maxPixels: 256 * 256)
            let again = try PNGCodec.decode(PNGCodec.encode(bitmap))
            precondition(again.packedRGBA() == bitmap.packedRGBA(), "a decoded PNG does not survive a round trip")
        }
    }
}
