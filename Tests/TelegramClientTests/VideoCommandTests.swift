import Foundation
import ImageCore
import MediaTestSupport
import TelegramClient
import TestVectors
import Testing

/// A message's video as the Telethon peer reports it.
struct PeerVideoMessage: Decodable {
    struct Thumb: Decodable { let type: String; let w: Int?; let h: Int? }
    struct Media: Decodable {
        let kind: String
        let mime_type: String?
        let duration: Double?
        let w: Int?
        let h: Int?
        let supports_streaming: Bool?
        let animated: Bool?
        let thumbs: [Thumb]?
    }

    let id: Int32
    let media: Media?
}

struct PeerVideoMessages: Decodable { let messages: [PeerVideoMessage] }
struct PeerDownload: Decodable { let size: Int }
struct PeerSavedGifs: Decodable {
    let gifs: [Int64]
    let unchanged: Bool
}

/// What `tg download --first-frame --json` prints.
struct FirstFrameDownload: Decodable {
    let path: String
    let width: Int
    let height: Int
    let fetchedBytes: Int64
    let requests: Int
    let fileSize: Int64
}

/// Videos through `tg` and tg-server with Telethon 1.45 as the other person: `tg send --video` (plain, `--round`,
/// `--gif`) arrives with `DocumentAttributeVideo` and server-made thumbnails Telethon downloads as JPEG; a video
/// Telethon sends is kept, its first frame streamed to a PNG (`download --first-frame`), and drawn with its badge
/// (terminal and PNG).
@Suite(.serialized) struct VideoCommandTests {
    static let bob = "9996620037"

    @Test func videosBothWaysWithTelethon() async throws {
        let harness = try await CommandLineHarness(peerPhone: Self.bob, peerUsername: "bob_video")
        do {
            try await videos(harness)
        } catch {
            await harness.close()
            throw error
        }
        await harness.close()
    }

    func videos(_ harness: CommandLineHarness) async throws {
        let media = harness.folder.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        let clip = media.appendingPathComponent("clip.mp4").path
        let square = media.appendingPathComponent("square.mp4").path
        for (path, size, audio) in [(clip, "320x240", true), (square, "240x240", false)] {
            var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=\(size):rate=10"]
            if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440", "-c:a", "aac", "-shortest"] }
            arguments += ["-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", path]
            #expect(try await Tools.runOffPool("ffmpeg", arguments) == 0)
        }
        let ann = try await harness.tgJSON(
            LoginResult.self,
            [
                "login", "--account", "ann", "--phone", "9996610037", "--code", "11111", "--first-name", "Ann",
                "--server", harness.serverArgument, "--server-key", harness.keyFile,
            ])
        #expect(ann.status == "signedIn")
        _ = try await harness.peer(PeerSent.self, ["op": "send", "to": "9996610037", "text": "send me a clip"])

        // Ann sends a video, a round video and a GIF.
        let video = try await harness.tgJSON(MessageSummary.self, ["send", "@bob_video", "a clip", "--video", clip])
        #expect(video.media?.kind == "video" && video.media?.duration == 2 && video.media?.width == 320)
        let round = try await harness.tgJSON(MessageSummary.self, ["send", "@bob_video", "--video", square, "--round"])
        #expect(round.media?.kind == "round")
        let gif = try await harness.tgJSON(MessageSummary.self, ["send", "@bob_video", "--video", square, "--gif"])
        #expect(gif.media?.kind == "gif")
        // Refusals: a round video must be square, a GIF silent.
        let notRound = try await harness.tg(["send", "@bob_video", "--video", clip, "--round"])
        #expect(notRound.status != 0 && notRound.errorOutput.contains("square"), "\(notRound.errorOutput)")
        let loud = try await harness.tg(["send", "@bob_video", "--video", clip, "--gif"])
        #expect(loud.status != 0 && loud.errorOutput.contains("silent"), "\(loud.errorOutput)")

        // Telethon sees the attributes and the server's thumbnails, and downloads them.
        let seen = try await harness.peer(PeerVideoMessages.self, ["op": "messages", "to": "9996610037", "limit": 3])
            .messages.reversed().map { $0 }
        #expect(seen.map(\.id) == [video.id, round.id, gif.id])
        let clipMedia = try #require(seen[0].media)
        #expect(clipMedia.kind == "video" && clipMedia.w == 320 && clipMedia.h == 240 && clipMedia.duration == 2)
        #expect(clipMedia.supports_streaming == true && clipMedia.mime_type == "video/mp4")
        #expect(clipMedia.thumbs?.map(\.type) == ["i", "m"])
        #expect(clipMedia.thumbs?.last?.w == 320 && clipMedia.thumbs?.last?.h == 240)
        #expect(seen[1].media?.kind == "round" && seen[1].media?.w == 240)
        #expect(seen[2].media?.animated == true)
        let thumbPath = media.appendingPathComponent("thumb.jpg").path
        _ = try await harness.peer(
            PeerDownload.self, ["op": "download", "to": "9996610037", "id": video.id, "path": thumbPath, "thumb": true])
        let probe = try await Tools.runCapturingOffPool(
            "ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", thumbPath])
        #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "mjpeg,320,240", "\(probe.output)")
        // Telethon's download of our video is byte-identical.
        let copy = media.appendingPathComponent("copy.mp4").path
        _ = try await harness.peer(
            PeerDownload.self, ["op": "download", "to": "9996610037", "id": video.id, "path": copy])
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == Data(contentsOf: URL(fileURLWithPath: clip)))

        // Saved GIFs: Ann saves hers and sends it again from her list, by reference (the same document); Telethon
        // saves the one it got, and its list's hash answers "not modified".
        let saved = try await harness.tgJSON([GifCommands.Summary].self, ["gifs", "save", "@bob_video", "\(gif.id)"])
        #expect(saved.count == 1 && saved.first?.width == 240 && saved.first?.duration == 2, "\(saved)")
        let notGif = try await harness.tg(["gifs", "save", "@bob_video", "\(video.id)"])
        #expect(notGif.status == 2 && notGif.errorOutput.contains("no GIF"), "\(notGif.errorOutput)")
        let again = try await harness.tgJSON(MessageSummary.self, ["send", "@bob_video", "--saved-gif", "1"])
        #expect(again.media?.kind == "gif")
        let noSuch = try await harness.tg(["send", "@bob_video", "--saved-gif", "2"])
        #expect(noSuch.status == 2, "\(noSuch.errorOutput)")
        let theirs = try await harness.peer(PeerSavedGifs.self, ["op": "save_gif", "to": "9996610037", "id": again.id])
        #expect(theirs.gifs == [saved[0].id] && theirs.unchanged, "\(theirs)")
        let removed = try await harness.tgJSON([GifCommands.Summary].self, ["gifs", "remove", "1"])
        #expect(removed.isEmpty)

        // Bob sends a video; Ann keeps it and draws it with its badge.
        let fromBob = try await harness.peer(
            PeerSent.self, ["op": "send_video", "to": "9996610037", "path": clip, "duration": 2, "w": 320, "h": 240])
        let history = try await harness.tgJSON([MessageSummary].self, ["history", "@bob_video"])
        let kept = try #require(history.first { $0.id == fromBob.id })
        #expect(kept.media?.kind == "video" && kept.media?.duration == 2 && kept.media?.width == 320)
        // Its first frame, streamed (`download --first-frame`): the frame ffmpeg decodes from the file Bob sent.
        let framePath = media.appendingPathComponent("first.png").path
        let first = try await harness.tgJSON(
            FirstFrameDownload.self, ["download", "@bob_video", String(fromBob.id), "--first-frame", framePath])
        #expect(first.width == 320 && first.height == 240 && first.requests >= 1)
        let clipSize = try #require(
            try FileManager.default.attributesOfItem(atPath: clip)[.size] as? NSNumber
        ).int64Value
        #expect(first.fileSize == clipSize && first.fetchedBytes <= clipSize)
        let frame = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: framePath))))
        let raw = media.appendingPathComponent("first.rgba").path
        #expect(
            try await Tools.runOffPool(
                "ffmpeg",
                ["-v", "error", "-y", "-i", clip, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", raw])
                == 0)
        let oracle = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let pixels = frame.packedRGBA()
        #expect(pixels.count == oracle.count)
        let meanDifference =
            Double(zip(pixels, oracle).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(oracle.count, 1))
        #expect(meanDifference < 1.0, "mean difference from ffmpeg's decode: \(meanDifference)")
        let text = try await harness.tgJSON(MessageSummary.self, ["send", "@bob_video", "not a video"])
        let notVideo = try await harness.tg(["download", "@bob_video", String(text.id), "--first-frame", raw])
        #expect(notVideo.status == 2 && notVideo.errorOutput.contains("no video"), "\(notVideo.errorOutput)")

        let rendered = try await harness.tg(["render", "@bob_video", "--ansi", "--plain", "--width", "60"])
        #expect(rendered.status == 0)
        #expect(rendered.output.contains("▶ video 0:02 320×240"), "\(rendered.output)")
        #expect(rendered.output.contains("● round video 0:02") && rendered.output.contains("GIF 240×240"))
        let png = media.appendingPathComponent("chat.png").path
        let drawn = try await harness.tgJSON(RenderedPNG.self, ["render", "@bob_video", "--png", png])
        #expect(drawn.missingPictures == 0, "every video's thumbnail fetched")
    }
}
