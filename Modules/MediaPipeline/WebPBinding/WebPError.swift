/// Why a WebP could not be read or written.
public enum WebPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libwebp rejected the data (bad RIFF, bad VP8/VP8L bitstream, truncated).
    case corrupt(String)
    /// The header claims a frame (or canvas) of more pixels than the caller allows.
    case tooLarge(width: Int, height: Int, frames: Int)
    /// Decoding every frame as a full canvas would take `bytes` of memory, more than the caller's `limit`.
    case tooMuchOutput(width: Int, height: Int, frames: Int, bytes: Int, limit: Int)
    /// The encoder failed (an impossible size, out of memory).
    case encodingFailed(String)

    public var description: String {
        switch self {
        case .corrupt(let why): return "corrupt WebP: \(why)"
        case .tooLarge(let width, let height, let frames):
            return "WebP header claims \(width)×\(height) with \(frames) frame(s), more pixels than allowed; "
                + "refused before decoding (pass a larger maxPixels only for a trusted file)"
        case .tooMuchOutput(let width, let height, let frames, let bytes, let limit):
            return "animated WebP of \(frames) frame(s) on a \(width)×\(height) canvas would decode to "
                + "\(bytes >> 20) MB, over the \(limit >> 20) MB limit; refused before decoding "
                + "(pass a larger maxDecodedBytes only for a trusted file)"
        case .encodingFailed(let why): return "WebP encoding failed: \(why)"
        }
    }
}
