import MediaTestSupport
import StickerFormats
import Testing
import VideoBinding

/// Telegram's video sticker rules, checked on WebM files the `ffmpeg` command makes.
@Suite struct VideoStickerValidationTests {
    @Test func aStickerWithinTheRulesPasses() throws {
        let webm = WebMStickers.make()
        #expect(StickerFormat.detect(webm) == .webm)
        #expect(try VideoStickerValidation.violations(webm) == [])
        #expect(try VideoStickerValidation.violations(WebMStickers.make(width: 512, height: 300)) == [])
    }

    @Test func fourSecondsIsTooLong() throws {
        #expect(
            try VideoStickerValidation.violations(WebMStickers.make(seconds: 4)) == ["duration is 4 s; at most 3 s"])
    }

    @Test func sixHundredPixelsIsTooLarge() throws {
        #expect(
            try VideoStickerValidation.violations(WebMStickers.make(width: 600, height: 600)) == [
                "size is 600×600; one side must be 512 and the other at most 512"
            ])
        #expect(
            try VideoStickerValidation.violations(WebMStickers.make(width: 400, height: 400)) == [
                "size is 400×400; one side must be 512 and the other at most 512"
            ])
    }

    @Test func audioAndHighFrameRatesBreakTheRules() throws {
        #expect(
            try VideoStickerValidation.violations(WebMStickers.make(fps: 60, audio: true)) == [
                "frame rate is 60 fps; at most 30", "has an audio stream; a video sticker has none",
            ])
    }

    @Test func notAVideoIsAnError() {
        #expect(StickerFormat.detect([0x1A, 0x45, 0xDF, 0xA3, 0x00]) == .webm)
        #expect(throws: VideoError.self) { try VideoStickerValidation.violations([0x1A, 0x45, 0xDF, 0xA3, 0x00]) }
    }

    @Test func theRulesReadTheProbe() {
        let info = VideoInfo(
            duration: 2.5, width: 512, height: 512, codec: "h264", container: "mov,mp4,m4a,3gp,3g2,mj2",
            hasAudio: false, frameRate: 30, hasAlpha: false)
        #expect(
            VideoStickerValidation.violations(info, byteCount: 300_000) == [
                "container is mov,mp4,m4a,3gp,3g2,mj2; a video sticker is WebM",
                "codec is h264; a video sticker is VP9", "file is 300000 bytes; at most 256 KB",
            ])
    }
}
