import AnimatedSticker
import ImageCore
import MediaTestSupport
import StickerFormats
import Testing
import VideoBinding

/// Video stickers (WebM, VP9 with alpha) as frame sources, through the frame cache like a `.tgs`.
@Suite struct VideoStickerFrameSourceTests {
    @Test func framesGoThroughTheCacheAndReadBackEqual() throws {
        let webm = WebMStickers.make()
        let source = try VideoStickerFrameSource(data: webm)
        #expect(source.frameCount == 30 && source.frameRate == 30)
        #expect(source.size == PixelSize(width: 512, height: 512))
        #expect(source.decoderName == "libvpx-vp9")
        let direct = try VideoDecoder.frames(webm).map(\.bitmap)
        let cache = try AnimatedStickerFrameCache.build(from: source)
        #expect(cache.frameCount == 30 && cache.frameRate == 30 && cache.size == source.size)
        #expect(cache.compressedSize < cache.rawSize / 20)
        for index in [0, 1, 29, 14, 3, 28] {
            #expect(try cache.frame(at: index) == direct[index], "cached frame \(index)")
            #expect(try source.frame(at: index) == direct[index], "decoded frame \(index), in any order")
        }
        let first = try cache.frame(at: 0)
        #expect(first[0, 0].a == 0 && first[256, 256].a == 255, "transparent corner, opaque disc")
        #expect(throws: AnimatedStickerError.frameOutOfRange(30, count: 30)) { try source.frame(at: 30) }
    }

    @Test func aStickerFileOpensAWebMAtAnySide() throws {
        let webm = WebMStickers.make()
        let file = try StickerFile(data: webm, side: 128)
        #expect(file.format == .webm && file.size == PixelSize(width: 128, height: 128))
        #expect(file.frameCount == 30)
        let frame = try file.frame(at: 0)
        #expect(frame[0, 0].a == 0 && frame[64, 64].a == 255)
        #expect(
            file.summary == [
                "format: webm (vp9 with alpha, decoded by libvpx-vp9)", "canvas: 512×512",
                "frames: 30 at 30.0 fps (1.00 s)", "size: \(webm.count) bytes", "Telegram limits: ok",
            ])
        let long = try StickerFile(data: WebMStickers.make(seconds: 4))
        #expect(long.frameCount == 120 && long.summary.last == "Telegram limits: duration is 4 s; at most 3 s")
    }

    @Test func aCanvasOver512IsRefusedBeforeDecoding() {
        #expect(throws: AnimatedStickerError.stickerTooLarge(PixelSize(width: 600, height: 600), maxSide: 512)) {
            try VideoStickerFrameSource(data: WebMStickers.make(width: 600, height: 600))
        }
    }

    @Test func damagedWebMIsAnError() {
        let webm = WebMStickers.make()
        for length in [4, 40, 400] {
            #expect(throws: AnimatedStickerError.self) { try StickerFile(data: Array(webm.prefix(length))) }
        }
    }
}
