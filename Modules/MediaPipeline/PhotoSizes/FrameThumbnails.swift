public import ImageCore
public import JPEGBinding

/// The thumbnails of a picture that is not itself a photo (a video's frame): one box size and the stripped
/// thumbnail, what Telegram puts in a video document's `thumbs` (`photoStrippedSize` `i` and `photoSize` `m`).
public struct FrameThumbnails: Sendable, Equatable {
    /// The box size (`m`, 320×320, by default), JPEG.
    public let size: PhotoSize
    /// The 40×40 stripped thumbnail; nil only if libjpeg-turbo wrote a header other than the clients' fixed one.
    public let stripped: StrippedThumbnail?
}

extension PhotoSizes {
    /// `frame` scaled down (never up) to fit `type`'s box and to the stripped thumbnail's, each with Lanczos-3 as the
    /// photo sizes are, the box size as JPEG at `quality`.
    public static func thumbnails(
        ofFrame frame: Bitmap, type: PhotoSizeType = .m, quality: Int = defaultQuality
    ) throws(JPEGError) -> FrameThumbnails {
        let box = scaled(frame, toFit: type.box, reusing: [])
        let jpeg = try JPEGEncoder.encode(box, quality: quality)
        let tiny = scaled(frame, toFit: StrippedThumbnail.box, reusing: [box])
        return FrameThumbnails(
            size: PhotoSize(type: type, width: box.width, height: box.height, jpeg: jpeg),
            stripped: try StrippedThumbnail.encode(tiny))
    }
}
