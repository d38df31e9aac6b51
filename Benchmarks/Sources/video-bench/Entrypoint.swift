import BenchmarkSupport
import Foundation
import ImageCore
import ImageTransform
import JPEGBinding
import VideoBinding

/// A video's first frame to a 320 px JPEG thumbnail — what a sender and tg-server do for every video — against the
/// `ffmpeg` command doing the same: read the file, demux, decode the first H.264 frame, scale it with Lanczos to
/// 320×180, encode a JPEG, write it. The peer's time is the command's whole run (its start-up included: that is what
/// "the ffmpeg command" costs); ours runs in this process. Before timing, both thumbnails are decoded and must show
/// the same picture (mean difference per channel under 4 of 255); each round both must write a 320×180 JPEG.
@main
enum VideoBench {
    static func main() throws {
        checkCommandLine(
            """
            usage: video-bench

            The first frame of a 5 s 1080p H.264 video (made by ffmpeg's testsrc2) to a 320×180 JPEG: VideoBinding +
            ImageTransform (Lanczos) + libjpeg-turbo against `ffmpeg -frames:v 1 -vf scale=320:180:flags=lanczos`.
            """)
        printMachine()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("video-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let video = scratch.appendingPathComponent("1080p.mp4")
        try FFmpegCommand.run([
            "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-t", "5", "-c:v", "libx264", "-pix_fmt",
            "yuv420p", "-g", "60", video.path,
        ])
        let ours = scratch.appendingPathComponent("ours.jpg")
        let peer = scratch.appendingPathComponent("ffmpeg.jpg")
        let size = PixelSize(width: 320, height: 180)

        func oursRun() -> String {
            let bytes = try! VideoDecoder.read(video, limits: .standard)
            let frame = try! VideoDecoder.firstFrame(bytes)
            let thumbnail = Resampler.resize(frame.bitmap, to: size)
            let jpeg = try! JPEGEncoder.encode(thumbnail, quality: 87)
            try! Data(jpeg).write(to: ours)
            return dimensions(of: ours)
        }
        func peerRun() -> String {
            try! FFmpegCommand.run([
                "-i", video.path, "-frames:v", "1", "-vf", "scale=320:180:flags=lanczos", "-q:v", "3", peer.path,
            ])
            return dimensions(of: peer)
        }
        _ = oursRun()
        _ = peerRun()
        let difference = meanDifference(
            try JPEGDecoder.decode([UInt8](Data(contentsOf: ours))),
            try JPEGDecoder.decode([UInt8](Data(contentsOf: peer))))
        guard difference < 4 else {
            BenchmarkMethod.differentWork(
                "first frame to 320 px", ours: "a picture", peer: "another (mean difference \(difference))")
        }
        let row = compareInterleaved(
            "1080p H.264 first frame → 320×180 JPEG", items: 1, unit: "thumbnails", goal: "≥ 1×", ours: oursRun,
            peer: peerRun)
        printTable(title: "Video thumbnail (5 s 1080p H.264, testsrc2)", peerName: "ffmpeg command", [row])
        print(String(format: "the two thumbnails differ by %.2f of 255 per channel on average", difference))
        // For a reader who wants FFmpeg's work without its start-up: the same command on a 16×16 colour frame.
        let startUp = measure("ffmpeg start-up", items: 1, unit: "runs", runs: 7) {
            try! FFmpegCommand.run(["-f", "lavfi", "-i", "color=size=16x16", "-frames:v", "1", "-f", "null", "-"])
        }
        print(
            String(
                format: "the ffmpeg command's start-up alone (one 16×16 frame to null): %.1f ms median of %d runs; "
                    + "ours %.1f ms, ffmpeg %.1f ms per thumbnail (medians)",
                startUp.seconds * 1000, startUp.runs, row.ours.seconds * 1000, row.peer!.seconds * 1000))
    }

    /// "W×H" of the JPEG at `url`, or what went wrong.
    static func dimensions(of url: URL) -> String {
        guard let bytes = try? Data(contentsOf: url), let info = try? JPEGDecoder.info([UInt8](bytes)) else {
            return "no JPEG"
        }
        return "\(info.width)×\(info.height)"
    }

    /// The mean absolute difference per colour channel of two bitmaps of one size (infinity when the sizes differ).
    static func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        guard a.width == b.width, a.height == b.height else { return .infinity }
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y]
                let q = b[x, y]
                total += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
            }
        }
        return Double(total) / Double(a.width * a.height * 3)
    }
}
