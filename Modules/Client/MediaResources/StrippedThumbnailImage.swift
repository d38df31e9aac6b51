public import ImageCore
import ImageTransform
import JPEGBinding
import PhotoSizes

/// The stripped thumbnail a photo carries (`photoStrippedSize`, `immediateThumbnailData`) as Telegram shows it
/// while the photo loads: rebuilt into a JPEG with the fixed header (`PhotoSizes.StrippedThumbnail.jpeg`, Telegram-iOS
/// `submodules/TinyThumbnail/Sources/TinyThumbnail.swift`), decoded, and blurred at its own size so that the
/// request's scaling enlarges a smooth picture rather than 8×8 blocks.
public enum StrippedThumbnailImage {
    /// The blur's standard deviation in pixels of the (at most 40×40) thumbnail.
    public static let blurSigma = 1.5

    /// The decoded, blurred thumbnail, or nil when `bytes` are not a stripped thumbnail or do not decode. Never
    /// more than 255 × 255 pixels are decoded, whatever the bytes claim.
    public static func decode(_ bytes: [UInt8]) -> Bitmap? {
        guard let thumbnail = StrippedThumbnail(bytes: bytes),
            let bitmap = try? JPEGDecoder.decode(thumbnail.jpeg, maxPixels: 255 * 255)
        else { return nil }
        return GaussianBlur.blur(bitmap, sigma: blurSigma)
    }
}
