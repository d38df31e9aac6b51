import Foundation
import ImageCore
import MediaTestSupport
import Testing
import WebPBinding

#if canImport(Glibc)
    import Glibc
#endif

/// Animated WebP keeps every frame as a whole canvas, so the container's canvas × frames is checked before decoding.
@Suite struct WebPLimitTests {
    /// The process's peak resident memory in bytes (`ru_maxrss`).
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    @Test func thousandsOfTinyFramesOnAHugeCanvasAreRefusedQuicklyInBoundedMemory() throws {
        let bytes = try HostileMedia.animatedWebP(canvas: 4096, frames: 2000)
        #expect(bytes.count < 100_000)
        // libwebp reads it as a valid animation: the canvas and frame count are what the file claims.
        let info = try WebPDecoder.info(bytes)
        #expect(info.isAnimated && info.width == 4096 && info.height == 4096)
        let peakBefore = Self.peakResidentBytes()
        let start = Date()
        let expected = WebPError.tooMuchOutput(
            width: 4096, height: 4096, frames: 2000, bytes: 2000 * 4096 * 4096 * 4,
            limit: WebPDecoder.defaultMaxDecodedBytes)
        #expect(thrownError { try WebPDecoder.decodeAnimation(bytes) } as? WebPError == expected)
        #expect(Date().timeIntervalSince(start) < 1)
        // Refused before libwebp allocates even one 64 MB canvas.
        #expect(Self.peakResidentBytes() - peakBefore < 64 << 20)
        #expect(expected.description.contains("4096×4096") && expected.description.contains("maxDecodedBytes"))
    }

    @Test func theSameShapeAtASmallSizeDecodes() throws {
        let bytes = try HostileMedia.animatedWebP(canvas: 8, frames: 3)
        let animation = try WebPDecoder.decodeAnimation(bytes)
        #expect(animation.width == 8 && animation.height == 8 && animation.frames.count == 3)
        // Frame n paints (2n, 0) red over the previous frames.
        let last = try #require(animation.frames.last).bitmap
        #expect([last[0, 0], last[2, 0], last[4, 0]].allSatisfy { $0 == RGBA(r: 255, g: 0, b: 0, a: 255) })
        #expect(last[6, 0].a == 0)
    }

    @Test func theDecodedTotalCountsOnlyTheFramesThatWillBeDecoded() throws {
        let bytes = try HostileMedia.animatedWebP(canvas: 64, frames: 100)
        // 100 frames × 16 KB = 1.6 MB.
        #expect(
            thrownError { try WebPDecoder.decodeAnimation(bytes, maxDecodedBytes: 1 << 20) } as? WebPError
                == .tooMuchOutput(width: 64, height: 64, frames: 100, bytes: 1_638_400, limit: 1 << 20))
        #expect(try WebPDecoder.decodeAnimation(bytes, maxFrames: 50, maxDecodedBytes: 1 << 20).frames.count == 50)
        #expect(try WebPDecoder.decodeAnimation(bytes).frames.count == 100)
        // The first frame of an animation decodes alone.
        #expect(try WebPDecoder.decode(bytes).size == PixelSize(width: 64, height: 64))
    }
}

