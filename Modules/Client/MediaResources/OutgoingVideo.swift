public import Foundation
import PhotoSizes
public import SyncCore
public import TelegramCore
public import VideoBinding

/// How a video is sent: a plain video, a round video message, or a GIF (a silent MP4 loop).
public enum OutgoingVideoKind: String, Sendable, CaseIterable {
    case video, round, gif
}

/// Why a video cannot be sent as asked.
public enum OutgoingVideoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// FFmpeg could not probe or decode it, or it is too large.
    case video(VideoError)
    /// A round video must be square and at most 60 s long.
    case notRound(width: Int, height: Int, seconds: Double)
    /// A GIF is silent.
    case gifWithSound
    /// The file could not be stored.
    case storage(String)

    public var description: String {
        switch self {
        case .video(let error): return error.description
        case .notRound(let width, let height, let seconds):
            return "a round video is square and at most \(Int(OutgoingVideo.maxRoundDuration)) s; this one is "
                + "\(width)×\(height), \(String(format: "%.1f", seconds)) s"
        case .gifWithSound: return "a GIF is a silent loop; this video has an audio track"
        case .storage(let why): return "cannot store the video: \(why)"
        }
    }
}

/// A video file → the document Telegram-iOS sends for it (`submodules/TelegramUI/.../PreparedChatMediaVideo`):
/// `video/mp4`, `DocumentAttributeVideo` with the probed duration and size, `supports_streaming`, `round_message`
/// for a round video, `DocumentAttributeAnimated` for a GIF, and the first frame's JPEG (a 320 box, through
/// `PhotoSizes`) as the local preview until the server's thumbnails arrive.
public enum OutgoingVideo {
    /// Telegram's limit for a round video message, in seconds.
    public static let maxRoundDuration = 60.0
    /// The largest file probed here (read whole into memory for FFmpeg).
    public static let maxInputBytes = 256 * 1_048_576

    /// The attributes for a video of `info` sent as `kind`.
    public static func attributes(
        for info: VideoInfo, kind: OutgoingVideoKind
    ) throws(OutgoingVideoError) -> [TelegramMediaFileAttribute] {
        let size = PixelDimensions(width: Int32(info.width), height: Int32(info.height))
        switch kind {
        case .video:
            return [
                .video(
                    duration: info.duration, size: size, isRoundMessage: false, supportsStreaming: true,
                    noSound: !info.hasAudio)
            ]
        case .round:
            guard info.width == info.height, info.duration <= maxRoundDuration else {
                throw .notRound(width: info.width, height: info.height, seconds: info.duration)
            }
            return [
                .video(
                    duration: info.duration, size: size, isRoundMessage: true, supportsStreaming: true,
                    noSound: !info.hasAudio)
            ]
        case .gif:
            guard !info.hasAudio else { throw .gifWithSound }
            return [
                .animated,
                .video(
                    duration: info.duration, size: size, isRoundMessage: false, supportsStreaming: true, noSound: true),
            ]
        }
    }

    /// Probes the file at `path`, makes its thumbnail and stores both in `account`'s MediaBox: the
    /// `TelegramMediaFile` to send with `EnqueueMessage(text:file:)`.
    public static func prepare(
        path: String, kind: OutgoingVideoKind, for account: Account
    ) throws(OutgoingVideoError) -> TelegramMediaFile {
        let bytes: [UInt8]
        do throws(VideoError) {
            bytes = try VideoDecoder.read(
                URL(fileURLWithPath: path), limits: VideoLimits(maxBytes: maxInputBytes))
        } catch { throw .video(error) }
        let made: VideoThumbnail
        do throws(VideoError) {
            made = try VideoDecoder.thumbnail(bytes, limits: VideoLimits(maxBytes: maxInputBytes))
        } catch { throw .video(error) }
        let attributes = try Self.attributes(for: made.info, kind: kind)
        let name = (path as NSString).lastPathComponent
        do {
            var file = try account.prepareFile(path: path, name: name, mimeType: "video/mp4", attributes: attributes)
            let thumb = made.thumbnails.size
            let image = try LocalFiles.withTemporaryFile(thumb.jpeg, suffix: ".jpg") { thumbPath in
                try account.prepareImage(
                    path: thumbPath, dimensions: PixelDimensions(width: Int32(thumb.width), height: Int32(thumb.height))
                )
            }
            file.previewRepresentations = image.representations.map {
                TelegramMediaImageRepresentation(
                    dimensions: $0.dimensions, resource: $0.resource, type: thumb.type.rawValue, byteSize: $0.byteSize)
            }
            file.immediateThumbnailData = made.thumbnails.stripped?.bytes
            return file
        } catch { throw .storage("\(error)") }
    }
}
