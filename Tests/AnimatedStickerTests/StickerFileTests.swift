import AnimatedSticker
import Foundation
import ImageCore
import StickerFormats
import Testing
import WebPBinding

/// One frame source whatever the file: the dispatch sticker-tool used to do itself.
@Suite struct StickerFileTests {
    @Test func aTGSRendersAtTheRequestedSide() throws {
        let tgs = try Fixtures.tgs("square")
        let file = try StickerFile(data: tgs, side: 64)
        let lottie = try LottieFrameSource(data: tgs, size: PixelSize(width: 64, height: 64))
        #expect(file.format == .tgs && file.size == PixelSize(width: 64, height: 64))
        #expect(file.frameCount == 180 && file.frameRate == 60)
        #expect(try file.frame(at: 90) == (try lottie.frame(at: 90)))
        #expect(file.frameIndices(fps: nil) == Array(0..<180))
        #expect(file.frameIndices(fps: 30).count == 90)
        #expect(
            file.summary == [
                "format: tgs (gzipped Lottie)", "canvas: 512×512", "frames: 180 at 60.0 fps (3.00 s)",
                "size: \(tgs.count) bytes (JSON 925 bytes), 1 layer(s)",
                "render cost: geometry within 500 units, 2 shape item(s), 1 layer(s) with precomps expanded",
                "Telegram limits: ok",
            ])
    }

    @Test func aWebPIsScaledToFitTheSide() throws {
        var frames: [Bitmap] = []
        for i in 0..<3 {
            var frame = Bitmap(width: 40, height: 20)
            frame[i * 10, 5] = RGBA(r: 255, g: 0, b: 0, a: 255)
            frames.append(frame)
        }
        let webp = try WebPEncoder.encodeAnimation(frames, durations: [100, 100, 100], .lossless)
        let file = try StickerFile(data: webp, side: 20)
        #expect(file.format == .webp && file.size == PixelSize(width: 20, height: 10))
        #expect(try file.frame(at: 2).size == PixelSize(width: 20, height: 10))
        #expect(file.frameCount == 3 && file.frameRate == 10)
        #expect(file.summary[0].hasPrefix("format: webp (animated, ") && file.summary[2] == "frames: 3 at 10.0 fps")
        let original = try StickerFile(data: webp)
        #expect(try original.frame(at: 1)[10, 5] == RGBA(r: 255, g: 0, b: 0, a: 255))
    }

    @Test func aPNGIsOneFrame() throws {
        var bitmap = Bitmap(width: 30, height: 60)
        bitmap[3, 3] = RGBA(r: 0, g: 0, b: 255, a: 255)
        let file = try StickerFile(data: PNGCodec.encode(bitmap))
        #expect(file.format == .png && file.frameCount == 1 && file.frameRate == 0)
        #expect(try file.frame(at: 0) == bitmap)
        #expect(file.frameIndices(fps: 30) == [0])
        #expect(try StickerFile(data: PNGCodec.encode(bitmap), side: 30).size == PixelSize(width: 15, height: 30))
    }

    @Test func unknownBytesAndBadSidesAreErrors() throws {
        #expect(throws: AnimatedStickerError.unknownFormat) { try StickerFile(data: Array("hello".utf8)) }
        #expect(throws: AnimatedStickerError.badSize(PixelSize(width: 0, height: 0))) {
            try StickerFile(data: try Fixtures.tgs("square"), side: 0)
        }
    }

    @Test func aTGSConvertsToAnAnimatedWebPAtThirtyFramesPerSecond() throws {
        let file = try StickerFile(data: try Fixtures.tgs("square"), side: 32)
        let webp = try file.animatedWebP(compression: .lossless)
        let animation = try WebPDecoder.decodeAnimation(webp)
        // 3 s at 60 fps, played at 30 fps: every other frame, 33 or 34 ms each, 3,000 ms in all.
        #expect(animation.frames.count == 90)
        #expect(animation.frames.reduce(0) { $0 + $1.duration } == 3_000)
        #expect(Set(animation.frames.map(\.duration)).isSubset(of: [33, 34]))
        // Lossless up to the straight-alpha round trip of antialiased edges.
        let last = try #require(animation.frames.last).bitmap
        #expect(try #require(last.maxChannelDifference(try file.frame(at: 178))) <= 2)
        #expect(try #require(last.maxChannelDifference(try file.frame(at: 176))) > 2)
    }
}
