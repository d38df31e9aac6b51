public import ImageCore
import JPEGBinding
public import PhotoSizes

/// What a sender or a server keeps for a video besides the file: the probe's facts, the first frame and its
/// thumbnails (the `thumbs` of a video document: Telegram-iOS makes the upload's thumbnail from the first frame,
/// `submodules/LegacyMediaPickerUI`, and Telegram's servers answer with `i` and `m` sizes).
public struct VideoThumbnail: Sendable, Equatable {
    /// Duration, dimensions, codec, audio.
    public let info: VideoInfo
    /// The first frame, full size.
    public let firstFrame: Bitmap
    /// The first frame in a 320 box as JPEG (`m`) and stripped (`i`).
    public let thumbnails: FrameThumbnails
}

extension VideoDecoder {
    /// Probes `bytes`, decodes the first frame and makes its thumbnails through `PhotoSizes` (one demuxer session).
    public static func thumbnail(
        _ bytes: [UInt8], type: PhotoSizeType = .m, limits: VideoLimits = .standard
    ) throws(VideoError) -> VideoThumbnail {
        let session = try DemuxSession(.whole(bytes), limits: limits)
        let info = try session.info()
        let frame = try session.frame(at: nil)
        do {
            let thumbnails = try PhotoSizes.thumbnails(ofFrame: frame.bitmap, type: type)
            return VideoThumbnail(info: info, firstFrame: frame.bitmap, thumbnails: thumbnails)
        } catch { throw .corrupt(what: "thumbnail", reason: error.description) }
    }
}
