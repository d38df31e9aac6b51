public import ImageCore
public import VideoBinding

/// A video sticker (WebM, VP9, with alpha) as a frame source: Telegram-iOS's `VideoStickerDirectFrameSource`
/// (`submodules/AnimatedStickerNode/Sources/VideoStickerFrameSource.swift`), which decodes the file with FFmpeg and
/// libvpx a frame at a time. Frames go through `AnimatedStickerFrameCache` like a `.tgs`'s.
///
/// Opening reads the whole stream once (frame count, first frame) and keeps only the first frame; `frame(at:)`
/// decodes forward from the last frame read and starts the stream again when asked for an earlier one, so a player
/// or a cache build (frames in order) decodes each frame once and holds one frame at a time. Bounded: a canvas over
/// 512×512 is refused from the headers before any frame is decoded (Telegram's stickers are at most 512), the file
/// at `maxFileBytes`, the frames at `maxFrames` (20 s at 30 fps; Telegram's rule is 3 s).
///
/// Not thread-safe (it holds an open decoder): one source per thread.
public final class VideoStickerFrameSource: AnimatedStickerFrameSource {
    /// The largest side of a sticker (Telegram's 512 px).
    public static let maxSide = 512
    /// The most frames decoded.
    public static let maxFrames = 600
    /// The largest file opened (Telegram's rule is 256 KB).
    public static let maxFileBytes = 4 << 20
    /// What FFmpeg may spend on a sticker.
    public static let limits = VideoLimits(
        maxBytes: maxFileBytes, maxDimension: maxSide, maxPixels: maxSide * maxSide, maxPackets: 2_000,
        maxFrames: maxFrames)

    /// What the headers say (codec, duration, audio, alpha).
    public let info: VideoInfo
    public let size: PixelSize
    public let frameCount: Int
    public let frameRate: Double
    /// The decoder used: `libvpx-vp9` when the alpha plane is kept.
    public let decoderName: String
    /// The first frame (a thumbnail, and what a chat shows before the sticker plays).
    public let firstFrame: Bitmap
    private let data: [UInt8]
    private var reader: VideoFrameReader?
    private var last: (index: Int, bitmap: Bitmap)?

    /// Opens `data` and reads it through once.
    public init(data: [UInt8]) throws(AnimatedStickerError) {
        let reader: VideoFrameReader
        do {
            reader = try VideoFrameReader(data, limits: Self.limits)
        } catch .tooLarge(let width, let height, _) {
            throw .stickerTooLarge(PixelSize(width: width, height: height), maxSide: Self.maxSide)
        } catch { throw .video(error) }
        var first: Bitmap?
        var count = 0
        do throws(VideoError) {
            while let frame = try reader.next() {
                if first == nil { first = frame.bitmap }
                guard frame.bitmap.size == first!.size else {
                    throw VideoError.corrupt(
                        what: "frame", reason: "frame \(count) changes size to \(frame.bitmap.size)")
                }
                count += 1
            }
        } catch { throw .video(error) }
        guard let first else { throw .video(.noFrame) }
        self.info = reader.info
        self.data = data
        self.decoderName = reader.decoderName
        self.firstFrame = first
        self.size = first.size
        self.frameCount = count
        let rate = reader.info.frameRate
        self.frameRate =
            rate > 0 ? rate : (reader.info.duration > 0 ? Double(count) / reader.info.duration : 30)
    }

    public func frame(at index: Int) throws -> Bitmap {
        guard (0..<frameCount).contains(index) else {
            throw AnimatedStickerError.frameOutOfRange(index, count: frameCount)
        }
        if index == 0 { return firstFrame }
        if let last, last.index == index { return last.bitmap }
        if reader == nil || (last?.index ?? 0) > index {
            do { reader = try VideoFrameReader(data, limits: Self.limits) } catch {
                throw AnimatedStickerError.video(error)
            }
            last = nil
        }
        do {
            while let frame = try reader!.next() {
                let read = reader!.framesRead - 1
                last = (read, frame.bitmap)
                if read == index {
                    guard frame.bitmap.size == size else { break }
                    return frame.bitmap
                }
            }
        } catch { throw AnimatedStickerError.video(error) }
        // The stream gave fewer frames than when it was opened: the bytes did not change, so FFmpeg did.
        throw AnimatedStickerError.video(.noFrame)
    }
}
