/// Why a WebP could not be read or written.
public enum WebPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libwebp rejected the data (bad RIFF, bad VP8/VP8L bitstream, truncated).
    case corrupt(String)
    /// The header claims more pixels or frames than the caller allows.
    case tooLarge(width: Int, height: Int, frames: Int)
    /// The encoder failed (an impossible size, out of memory).
    case encodingFailed(String)

    public var description: String {
        switch self {
        case .corrupt(let why): return "corrupt WebP: \(why)"
        case .tooLarge(let width, let height, let frames):
            return "WebP of \(width)×\(height) with \(frames) frame(s) exceeds the allowed size"
        case .encodingFailed(let why): return "WebP encoding failed: \(why)"
        }
    }
}
