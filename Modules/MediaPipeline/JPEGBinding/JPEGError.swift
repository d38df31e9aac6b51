/// Why a JPEG could not be read or written. Every failure of TurboJPEG is one of these; nothing traps.
public enum JPEGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where in the file reading stopped.
    public enum Stage: String, Sendable {
        /// The markers before the first scan (SOI, DQT, SOF, DHT, SOS): what `tjDecompressHeader3` reads.
        case header
        /// The entropy-coded scans, decompressed into pixels (`tjDecompress2`).
        case pixels
    }

    /// The bytes are not a JPEG libjpeg-turbo can read: `reason` is its message (a warning such as "Premature end
    /// of JPEG file" counts as an error: a truncated or damaged picture is refused, not half grey).
    case corrupt(stage: Stage, reason: String)
    /// The frame header (SOF) claims more pixels than `limit`: the caller's cap, or the default one for an input
    /// of `inputSize` bytes. Refused before anything is decompressed or allocated.
    case tooLarge(width: Int, height: Int, limit: Int, inputSize: Int)
    /// TurboJPEG could not encode the bitmap (`reason` is its message).
    case encodeFailed(width: Int, height: Int, reason: String)

    public var description: String {
        switch self {
        case .corrupt(let stage, let reason):
            return "corrupt JPEG (while reading its \(stage == .header ? "header markers" : "scans into pixels")): "
                + "\(reason)"
        case .tooLarge(let width, let height, let limit, let inputSize):
            return "JPEG frame header (SOF) claims \(width)×\(height) pixels from \(inputSize) bytes, over the limit "
                + "of \(limit) pixels; refused before decompressing (pass a larger maxPixels if such an image is "
                + "expected)"
        case .encodeFailed(let width, let height, let reason):
            return "cannot encode a \(width)×\(height) bitmap as JPEG: \(reason)"
        }
    }
}
