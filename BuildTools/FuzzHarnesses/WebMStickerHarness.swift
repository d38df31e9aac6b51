import AnimatedSticker
import ImageCore
import StickerFormats

extension FuzzHarness {
    /// WebM bytes → FFmpeg's Matroska demuxer (through the custom I/O over the bytes), the VP9 decoder — libvpx when
    /// the stream claims alpha, so BlockAdditional alpha planes are decoded too — and `VideoStickerFrameSource` under
    /// its sticker caps (512 a side, 600 frames), then Telegram's video sticker rules and two frames read back, the
    /// second forcing the stream to start again: what a chat does with a video sticker it receives.
    public static let webmSticker = FuzzHarness(
        name: "webm-sticker",
        summary: "WebM bytes → FFmpeg demux, VP9/libvpx alpha decode, the video sticker frame source and its rules"
    ) { input in
        .of {
            let source = try VideoStickerFrameSource(data: input)
            _ = VideoStickerValidation.violations(source.info, byteCount: input.count)
            precondition(source.frameCount > 0 && source.size.width <= 512 && source.size.height <= 512)
            for index in [source.frameCount - 1, source.frameCount / 2] {
                let frame = try source.frame(at: index)
                precondition(frame.size == source.size, "every frame has the sticker's size")
            }
        }
    }
}
