/// What a probe learns about a video without decoding a frame.
public struct VideoInfo: Sendable, Equatable {
    /// Length in seconds (the container's, else the video stream's; 0 when neither says).
    public let duration: Double
    /// The video stream's coded frame width (before any rotation).
    public let width: Int
    /// The video stream's coded frame height.
    public let height: Int
    /// FFmpeg's short codec name: `h264`, `hevc`, `vp9`, `av1`, `mpeg4`…
    public let codec: String
    /// The container's short format name(s) as FFmpeg lists them: `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`…
    public let container: String
    /// Whether the file has an audio stream (a GIF-like silent loop has none).
    public let hasAudio: Bool

    /// The duration rounded to whole seconds as `DocumentAttributeVideo.duration` carries it (layer 158 and
    /// earlier: an int; later layers a double).
    public var wholeSeconds: Int { Int(duration.rounded()) }
}
