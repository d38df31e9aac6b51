import AnimatedSticker
import Foundation
import ImageCore
import MediaTestSupport
import Testing
import WebPBinding

/// Telegram's 512 px sticker limit and the decoded-size cap, enforced where WebP stickers are decoded.
@Suite struct StickerLimitTests {
    @Test func aWebPStickerOver512IsRefusedFromItsHeader() throws {
        let still = try WebPEncoder.encode(Bitmap(width: 513, height: 100), .lossless)
        #expect(
            thrownError { try WebPFrameSource(data: still) } as? AnimatedStickerError
                == .stickerTooLarge(PixelSize(width: 513, height: 100), maxSide: 512))
        let hostile = try HostileMedia.animatedWebP(canvas: 4096, frames: 2000)
        let start = Date()
        #expect(
            thrownError { try WebPFrameSource(data: hostile) } as? AnimatedStickerError
                == .stickerTooLarge(PixelSize(width: 4096, height: 4096), maxSide: 512))
        #expect(Date().timeIntervalSince(start) < 1)
        let message = AnimatedStickerError.stickerTooLarge(PixelSize(width: 4096, height: 4096), maxSide: 512)
            .description
        #expect(message.contains("4096×4096") && message.contains("512×512"))
    }

    @Test func a512StickerWithTooManyFramesIsRefusedBeforeDecoding() throws {
        // 300 frames of 512×512 would take 300 MB decoded.
        let bytes = try HostileMedia.animatedWebP(canvas: 512, frames: 300)
        #expect(
            thrownError { try WebPFrameSource(data: bytes) } as? AnimatedStickerError
                == .webp(.tooMuchOutput(width: 512, height: 512, frames: 300, bytes: 300 << 20, limit: 256 << 20)))
    }

    @Test func a512StickerDecodes() throws {
        let bytes = try HostileMedia.animatedWebP(canvas: 512, frames: 4)
        let source = try WebPFrameSource(data: bytes)
        #expect(source.size == PixelSize(width: 512, height: 512) && source.frameCount == 4)
        #expect(try source.frame(at: 3)[6, 0] == RGBA(r: 255, g: 0, b: 0, a: 255))
    }
}

