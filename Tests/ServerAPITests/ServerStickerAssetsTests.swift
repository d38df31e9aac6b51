import Foundation
import GZip
import ImageCore
import TelegramApi
import Testing
import VideoBinding
import WebPBinding

@testable import ServerAPI

/// The server's sticker set meets Telegram's sticker rules (core.telegram.org "Stickers", "Animated stickers",
/// "Video stickers").
@Suite struct ServerStickerAssetsTests {
    @Test func animatedStickersAreSmallLottieAt512And60FramesPerSecond() throws {
        let stickers = try ServerStickerAssets.all()
        #expect(stickers.count == 6)
        for sticker in stickers where sticker.mime == "application/x-tgsticker" {
            #expect(sticker.bytes.count <= 64 * 1024, "\(sticker.fileName)")
            let json = try GZip.decompress(sticker.bytes, maxOutput: 1 << 20)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
            #expect(object["w"] as? Int == 512 && object["h"] as? Int == 512, "\(sticker.fileName)")
            #expect(object["fr"] as? Int == 60, "\(sticker.fileName)")
            let frames = try #require(object["op"] as? Int)
            #expect(frames > 0 && frames <= 180, "\(sticker.fileName): at most 3 s")
        }
    }

    @Test func stillStickersAre512SquareWebP() throws {
        for sticker in try ServerStickerAssets.all() where sticker.mime == "image/webp" {
            let bitmap = try WebPDecoder.decode(sticker.bytes)
            #expect(bitmap.width == 512 && bitmap.height == 512, "\(sticker.fileName)")
            // Transparent corners, an opaque centre.
            #expect(bitmap[0, 0].a == 0 && bitmap[256, 256].a == 255, "\(sticker.fileName)")
        }
    }

    @Test func theVideoStickerIsA512SquareVP9WebMWithAlpha() throws {
        let video = try #require(try ServerStickerAssets.all().first { $0.mime == "video/webm" })
        #expect(video.bytes == ServerVideoStickerAsset.webm && video.bytes.count <= 256 * 1024)
        let info = try VideoDecoder.probe(video.bytes)
        #expect(info.codec == "vp9" && info.container.split(separator: ",").contains("webm"))
        #expect(info.width == 512 && info.height == 512 && info.hasAlpha && !info.hasAudio)
        #expect(info.duration <= 3 && info.frameRate <= 30 && video.videoDuration == info.duration)
        let frames = try VideoDecoder.frames(video.bytes)
        #expect(frames.count == 30)
        #expect(frames.allSatisfy { $0.bitmap[0, 0].a == 0 && $0.bitmap[256, 256].a == 255 })
    }

    @Test func aVideoStickerCountsAsAStickerWhateverTheAttributeOrder() {
        let sticker = Api.DocumentAttribute.documentAttributeSticker(.init(alt: "🟣", stickerset: .inputStickerSetEmpty))
        let video = Api.DocumentAttribute.documentAttributeVideo(.init(duration: 1, w: 512, h: 512))
        #expect(ServerBackend.mediaKind(of: [video, sticker]) == .sticker)
        #expect(ServerBackend.mediaKind(of: [sticker, video]) == .sticker)
        #expect(ServerBackend.mediaKind(of: [video]) == .video)
    }
}
