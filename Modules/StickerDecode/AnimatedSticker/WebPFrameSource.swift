public import ImageCore
public import WebPBinding

/// A WebP sticker (animated or still) as a frame source, decoded through WebPBinding.
///
/// Telegram stickers are at most 512×512 (static WebP stickers have one side of exactly 512), so a larger canvas is
/// refused from its header before any pixel is decoded. Frames are decoded once, composited on the canvas, and
/// kept: a 512×512 frame costs 1 MB, so the frame count and the decoded total are capped (`maxFrames`,
/// `maxDecodedBytes`). For long animations, build an `AnimatedStickerFrameCache` from this source.
public final class WebPFrameSource: AnimatedStickerFrameSource, Sendable {
    /// The most frames a WebP sticker may have here.
    public static let maxFrames = 600
    /// The largest side of a sticker (Telegram's 512 px).
    public static let maxSide = 512
    /// The most memory the decoded frames may take together: 256 full 512×512 frames.
    public static let maxDecodedBytes = 256 << 20
    public let animation: WebPAnimation
    public let size: PixelSize
    public var frameCount: Int { animation.frames.count }
    /// Frames per second over the whole loop (0 for a still image).
    public let frameRate: Double

    /// Decodes `data`, a still or animated WebP of at most 512×512.
    public init(data: [UInt8]) throws(AnimatedStickerError) {
        let header: WebPInfo
        do { header = try WebPDecoder.info(data) } catch { throw .webp(error) }
        guard header.width <= Self.maxSide, header.height <= Self.maxSide else {
            throw .stickerTooLarge(PixelSize(width: header.width, height: header.height), maxSide: Self.maxSide)
        }
        do {
            animation = try WebPDecoder.decodeAnimation(
                data, maxPixels: Self.maxSide * Self.maxSide, maxFrames: Self.maxFrames,
                maxDecodedBytes: Self.maxDecodedBytes)
        } catch { throw .webp(error) }
        size = PixelSize(width: animation.width, height: animation.height)
        let total = animation.frames.reduce(0) { $0 + $1.duration }
        frameRate = animation.frames.count > 1 && total > 0 ? Double(animation.frames.count) * 1000 / Double(total) : 0
    }

    public func frame(at index: Int) throws -> Bitmap {
        guard (0..<frameCount).contains(index) else {
            throw AnimatedStickerError.frameOutOfRange(index, count: frameCount)
        }
        return animation.frames[index].bitmap
    }

    /// Display time of each frame in milliseconds.
    public var durations: [Int] { animation.frames.map(\.duration) }
}
