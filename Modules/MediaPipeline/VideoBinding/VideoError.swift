/// Why a video could not be probed or decoded.
public enum VideoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input is larger than the caller allows; refused before FFmpeg sees a byte.
    case tooManyBytes(count: Int, limit: Int)
    /// The video stream's frames are larger than the caller allows; refused before a frame is decoded.
    case tooLarge(width: Int, height: Int, limits: VideoLimits)
    /// FFmpeg could not read the container or the stream (`what` is the step, `reason` FFmpeg's message).
    case corrupt(what: String, reason: String)
    /// The container holds no video stream FFmpeg can decode.
    case noVideoStream
    /// The stream ended (or the decoding budget ran out) before a frame came out.
    case noFrame
    /// The decode reached bytes of a partly present file (`VideoBytes`) that are missing: the range it read, within
    /// the file. Fetch it (or more) and decode again.
    case needsBytes(Range<Int>)
    /// A frame-by-frame read went past `VideoLimits.maxFrames`.
    case tooManyFrames(limit: Int)

    public var description: String {
        switch self {
        case .tooManyBytes(let count, let limit):
            return "video of \(count) bytes is over the \(limit)-byte limit; refused before reading"
        case .tooLarge(let width, let height, let limits):
            return "video frames of \(width)×\(height) exceed the limits (\(limits.maxDimension) px a side, "
                + "\(limits.maxPixels) pixels); refused before decoding"
        case .corrupt(let what, let reason): return "unreadable video (\(what)): \(reason)"
        case .noVideoStream: return "no decodable video stream"
        case .noFrame: return "no video frame could be decoded"
        case .needsBytes(let range):
            return "the decode needs bytes \(range.lowerBound)..<\(range.upperBound), not yet present"
        case .tooManyFrames(let limit): return "the video has more than \(limit) frames, the limit"
        }
    }
}

/// What a caller lets a video cost: the input's size and a frame's size, checked before any frame is decoded.
public struct VideoLimits: Sendable, Equatable {
    /// The largest input in bytes.
    public var maxBytes: Int
    /// The longest side of a frame in pixels.
    public var maxDimension: Int
    /// The most pixels in a frame.
    public var maxPixels: Int
    /// The most packets read while looking for one frame: corrupt input that never yields a frame ends here.
    public var maxPackets: Int
    /// The most frames a `VideoFrameReader` delivers; the next read past it throws `tooManyFrames`.
    public var maxFrames: Int

    /// A limit set; the defaults take a 2 GB file of 4K frames (Telegram's upload limit, its largest video) and an
    /// hour at 60 fps read frame by frame.
    public init(
        maxBytes: Int = 2_000 * 1_048_576, maxDimension: Int = 4_096, maxPixels: Int = 4_096 * 2_304,
        maxPackets: Int = 20_000, maxFrames: Int = 216_000
    ) {
        self.maxBytes = maxBytes
        self.maxDimension = maxDimension
        self.maxPixels = maxPixels
        self.maxPackets = maxPackets
        self.maxFrames = maxFrames
    }

    /// The defaults.
    public static let standard = VideoLimits()
}
