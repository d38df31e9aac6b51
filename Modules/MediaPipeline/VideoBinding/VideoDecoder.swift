public import Foundation
public import ImageCore

/// One decoded video frame and its time from the start of the stream.
public struct VideoFrame: Sendable, Equatable {
    /// The frame as premultiplied RGBA: opaque, unless the stream carries alpha (`VideoInfo.hasAlpha`) and libvpx
    /// decoded it.
    public let bitmap: Bitmap
    /// Seconds from the stream's start.
    public let time: Double
}

/// FFmpeg over untrusted bytes: probe a video and decode its frames into `Bitmap`s (Telegram-iOS decodes video with
/// FFmpeg too: `submodules/FFMpegBinding`, `MediaPlayer/Sources/FFMpegMediaFrameSource.swift`).
///
/// Bounded: the input's size is checked before FFmpeg reads a byte, the stream's frame size before a frame is
/// decoded and again for every decoded frame, and the search for a frame reads at most `maxPackets` packets. FFmpeg
/// reads only through `RangedInput`, which never leaves the bytes. Safe from any thread (each call opens its own
/// contexts).
///
/// `probe` and `firstFrame` also take a `VideoBytes`, a file only partly present: they never wait for a byte; the
/// first missing one they need ends them with `VideoError.needsBytes(range)`, and the caller fetches the range and
/// calls again (`MediaResources`' `StreamedVideo` does, over MediaBox's partial files).
public enum VideoDecoder {
    /// The container and video stream's facts, without decoding a frame.
    public static func probe(_ bytes: [UInt8], limits: VideoLimits = .standard) throws(VideoError) -> VideoInfo {
        try probe(.whole(bytes), limits: limits)
    }

    /// The container and video stream's facts from the bytes present, or `needsBytes` for the first range missing.
    public static func probe(_ bytes: VideoBytes, limits: VideoLimits = .standard) throws(VideoError) -> VideoInfo {
        try DemuxSession(bytes, limits: limits).info()
    }

    /// The first frame of the video stream.
    public static func firstFrame(
        _ bytes: [UInt8], limits: VideoLimits = .standard
    ) throws(VideoError)
        -> VideoFrame
    {
        try firstFrame(.whole(bytes), limits: limits)
    }

    /// The first frame from the bytes present (the headers, then the first group of pictures), or `needsBytes` for
    /// the first range missing.
    public static func firstFrame(
        _ bytes: VideoBytes, limits: VideoLimits = .standard
    ) throws(VideoError)
        -> VideoFrame
    {
        try DemuxSession(bytes, limits: limits).frame(at: nil)
    }

    /// The first frame shown at or after `seconds` (seeking to the key frame before it and decoding forward), or
    /// the last frame when `seconds` is past the end.
    public static func frame(
        _ bytes: [UInt8], at seconds: Double, limits: VideoLimits = .standard
    )
        throws(VideoError) -> VideoFrame
    {
        try DemuxSession(.whole(bytes), limits: limits).frame(at: seconds)
    }

    /// Reads the file at `url` (refusing one over `limits.maxBytes` by its size, before reading) and probes it.
    public static func probe(fileAt url: URL, limits: VideoLimits = .standard) throws(VideoError) -> VideoInfo {
        try probe(read(url, limits: limits), limits: limits)
    }

    /// The file's bytes, refused by size first.
    public static func read(_ url: URL, limits: VideoLimits) throws(VideoError) -> [UInt8] {
        let size: Int
        do {
            size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        } catch { throw .corrupt(what: "file", reason: "cannot read \(url.path): \(error.localizedDescription)") }
        guard size <= limits.maxBytes else { throw .tooManyBytes(count: size, limit: limits.maxBytes) }
        do { return [UInt8](try Data(contentsOf: url)) } catch {
            throw .corrupt(what: "file", reason: "cannot read \(url.path): \(error.localizedDescription)")
        }
    }
}
