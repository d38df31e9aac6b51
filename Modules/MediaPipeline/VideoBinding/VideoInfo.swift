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
    /// The video stream's frame rate (its average, else its base rate; 0 when the container says neither).
    public let frameRate: Double
    /// Whether the stream says its frames carry alpha (WebM's `AlphaMode`, as video stickers have).
    public let hasAlpha: Bool

    /// A probe's facts (what `VideoDecoder.probe` answers; tests and callers holding facts from elsewhere).
    public init(
        duration: Double, width: Int, height: Int, codec: String, container: String, hasAudio: Bool,
        frameRate: Double = 0, hasAlpha: Bool = false
    ) {
        self.duration = duration
        self.width = width
        self.height = height
        self.codec = codec
        self.container = container
        self.hasAudio = hasAudio
        self.frameRate = frameRate
        self.hasAlpha = hasAlpha
    }

    /// The duration rounded to whole seconds as `DocumentAttributeVideo.duration` carries it (layer 158 and
    /// earlier: an int; later layers a double).
    public var wholeSeconds: Int { Int(duration.rounded()) }
}
