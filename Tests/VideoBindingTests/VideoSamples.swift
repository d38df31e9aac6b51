import Foundation
import MediaTestSupport
import XCTest

/// Small videos made on the spot by the `ffmpeg` command (FFmpeg's `testsrc` pattern: colour bars, a moving
/// gradient and a frame counter, so frames differ), once per test run.
enum VideoSamples {
    /// 320×240, 10 fps, 1 s of H.264 in MP4 with a 440 Hz AAC track.
    static let mp4WithAudio: URL = make(
        "av.mp4",
        [
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-f", "lavfi", "-i", "sine=frequency=440",
            "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
        ])
    /// 160×160, 10 fps, 2 s of silent H.264 in MP4 (a round video's shape, a GIF's lack of sound).
    static let silentSquare: URL = make(
        "square.mp4",
        ["-f", "lavfi", "-i", "testsrc=size=160x160:rate=10", "-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p"])

    /// 320×240, 25 fps, 8 s of H.264 (a key frame every 2 s) in MP4 with AAC: `faststart` puts the index (moov)
    /// before the frames, as Telegram's clients upload videos; without it ffmpeg writes the index at the end.
    static let faststart: URL = make("faststart.mp4", streamed + ["-movflags", "+faststart"])
    static let moovAtEnd: URL = make("moov-at-end.mp4", streamed)
    private static let streamed = [
        "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440",
        "-t", "8", "-c:v", "libx264", "-g", "50", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
    ]

    static let folder = Tools.scratch("video-samples")

    static func make(_ name: String, _ arguments: [String]) -> URL {
        let url = folder.appendingPathComponent(name)
        let status = try? Tools.run("ffmpeg", ["-v", "error", "-y"] + arguments + [url.path])
        precondition(status == 0, "ffmpeg could not make \(name) (run `make deps`)")
        return url
    }

    static func bytes(_ url: URL) -> [UInt8] { [UInt8](try! Data(contentsOf: url)) }

    /// ffmpeg's own decode of the frame at `seconds` (input seeking, exact) as packed RGBA.
    static func ffmpegFrame(_ url: URL, at seconds: Double = 0) -> [UInt8] {
        let out = Tools.scratch("video-frame").appendingPathComponent("frame.raw")
        let status = try? Tools.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-ss", String(seconds), "-i", url.path, "-frames:v", "1", "-f", "rawvideo",
                "-pix_fmt", "rgba", out.path,
            ])
        precondition(status == 0, "ffmpeg could not decode \(url.lastPathComponent)")
        return [UInt8](try! Data(contentsOf: out))
    }

    /// The mean and largest absolute difference of two equally long byte arrays.
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> (mean: Double, max: Int) {
        precondition(a.count == b.count)
        var total = 0
        var largest = 0
        for index in a.indices {
            let delta = abs(Int(a[index]) - Int(b[index]))
            total += delta
            largest = max(largest, delta)
        }
        return (Double(total) / Double(max(a.count, 1)), largest)
    }
}
