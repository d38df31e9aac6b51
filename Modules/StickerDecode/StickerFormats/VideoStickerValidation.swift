public import VideoBinding

/// Telegram's rules for video stickers (core.telegram.org/stickers, "Video stickers" and "Sticker formats"): a WebM
/// container, the VP9 codec, one side exactly 512 px and the other at most 512, at most 3 seconds, at most 30 frames
/// per second, no audio stream, at most 256 KB. A file that breaks one is still decoded (as Telegram's apps play one
/// a bot uploaded); the rules are reported as violations, one readable string each.
public enum VideoStickerValidation {
    public static let side = 512
    /// Seconds.
    public static let maxDuration = 3.0
    public static let maxFrameRate = 30.0
    public static let maxSize = 256 * 1024
    /// What a probe of a claimed sticker may cost: well over the rules (so a breaking file is still described), far
    /// under a video's limits.
    public static let probeLimits = VideoLimits(
        maxBytes: 8 << 20, maxDimension: 4_096, maxPixels: 4_096 * 4_096, maxPackets: 2_000, maxFrames: 600)

    /// The rules `bytes` breaks, from its headers (no frame is decoded); throws when it is not a video FFmpeg reads.
    public static func violations(_ bytes: [UInt8]) throws(VideoError) -> [String] {
        violations(try VideoDecoder.probe(bytes, limits: probeLimits), byteCount: bytes.count)
    }

    /// The rules a video of `info`, `byteCount` bytes long, breaks.
    public static func violations(_ info: VideoInfo, byteCount: Int) -> [String] {
        var result: [String] = []
        if !info.container.split(separator: ",").contains("webm") {
            result.append("container is \(info.container); a video sticker is WebM")
        }
        if info.codec != "vp9" { result.append("codec is \(info.codec); a video sticker is VP9") }
        if max(info.width, info.height) != side || min(info.width, info.height) > side {
            result.append("size is \(info.width)×\(info.height); one side must be 512 and the other at most 512")
        }
        // Durations are read from timestamps in milliseconds: a 3 s sticker may read as 3.001.
        if info.duration > maxDuration + 0.005 {
            result.append("duration is \(seconds(info.duration)) s; at most 3 s")
        }
        if info.frameRate > maxFrameRate + 0.01 {
            result.append("frame rate is \(seconds(info.frameRate)) fps; at most 30")
        }
        if info.hasAudio { result.append("has an audio stream; a video sticker has none") }
        if byteCount > maxSize { result.append("file is \(byteCount) bytes; at most 256 KB") }
        return result
    }

    static func seconds(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? "\(Int(rounded))" : "\(rounded)"
    }
}
