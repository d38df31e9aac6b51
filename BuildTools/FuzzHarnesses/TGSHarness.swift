import AnimatedSticker
import ImageCore
import StickerFormats

extension FuzzHarness {
    /// `.tgs` (or Lottie JSON) bytes → gunzip with the 8 MB cap, the Lottie structure checks, rlottie's loader, and
    /// renders of the first and last frame at 16×16: what a chat list does with a sticker it receives.
    public static let tgs = FuzzHarness(
        name: "tgs", summary: ".tgs bytes → gunzip, Lottie checks, rlottie load, two 16×16 frame renders"
    ) { input in
        .of {
            let source = try LottieFrameSource(data: input, size: PixelSize(width: 16, height: 16))
            _ = TGSValidation.violations(source.info)
            for index in [0, source.frameCount - 1] {
                let frame = try source.frame(at: index)
                precondition(frame.size == PixelSize(width: 16, height: 16))
            }
        }
    }
}
