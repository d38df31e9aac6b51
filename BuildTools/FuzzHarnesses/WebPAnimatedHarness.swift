import ImageCore
import WebPBinding

extension FuzzHarness {
    /// Animated WebP bytes → `WebPDecoder.decodeAnimation` (demux, the container's canvas × frames check, ANMF
    /// compositing with blending and disposal) under small caps: 128×128, 16 frames, 1 MB decoded. Every frame must
    /// be a whole canvas and the timestamps must add up.
    public static let webpAnimated = FuzzHarness(
        name: "webp-animated", summary: "animated WebP bytes → WebPDecoder.decodeAnimation (demux, caps, compositing)"
    ) { input in
        .of {
            let animation = try WebPDecoder.decodeAnimation(
                input, maxPixels: 128 * 128, maxFrames: 16, maxDecodedBytes: 1 << 20)
            precondition(!animation.frames.isEmpty && animation.frames.count <= 16)
            var time = 0
            for frame in animation.frames {
                precondition(frame.bitmap.size == PixelSize(width: animation.width, height: animation.height))
                precondition(frame.timestamp == time, "frames must follow each other")
                time += frame.duration
            }
        }
    }
}
