public import ImageCore
public import WebPBinding

/// A WebP sticker (animated or still) as a frame source; WebP stickers decode through WebPBinding (REFERENCE §6).
///
/// Frames are decoded once, composited on the canvas, and kept: a 512×512 sticker costs 1 MB per frame, so the
/// frame count is capped (`maxFrames`). For long animations, build an `AnimatedStickerFrameCache` from this source.
public final class WebPFrameSource: AnimatedStickerFrameSource, Sendable {
    /// The most frames a WebP sticker may have here.
    public static let maxFrames = 600
    public let animation: WebPAnimation
    public let size: PixelSize
    public var frameCount: Int { animation.frames.count }
    /// Frames per second over the whole loop (0 for a still image).
    public let frameRate: Double

    /// Decodes `data`, a still or animated WebP.
    public init(data: [UInt8]) throws(AnimatedStickerError) {
        do { animation = try WebPDecoder.decodeAnimation(data, maxFrames: Self.maxFrames) } catch { throw .webp(error) }
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
