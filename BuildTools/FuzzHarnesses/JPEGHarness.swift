import ImageCore
import JPEGBinding

extension FuzzHarness {
    /// JPEG bytes → `JPEGDecoder.decode` (TurboJPEG: header read and checked against a 256×256 cap before
    /// decompressing, warnings as errors, the progressive scan limit, CMYK conversion, EXIF orientation parsed and
    /// applied). What decodes must have the size its header states (turned as its EXIF data says), and must encode
    /// and decode again to that size.
    public static let jpeg = FuzzHarness(
        name: "jpeg", summary: "JPEG bytes → JPEGDecoder.decode (TurboJPEG, header caps); decoded images re-encode"
    ) { input in
        .of {
            let bitmap = try JPEGDecoder.decode(input, maxPixels: 256 * 256, applyingOrientation: true)
            let info = try JPEGDecoder.info(input)
            precondition(bitmap.size == info.displaySize, "decoded size ≠ the header's as its EXIF data turns it")
            let again = try JPEGDecoder.decode(JPEGEncoder.encode(bitmap, quality: 75))
            precondition(again.size == bitmap.size, "a decoded JPEG does not survive a round trip")
        }
    }
}
