/// Why an Ogg/Opus stream or a WAV file could not be read or written.
public enum OpusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not an Ogg/Opus stream, a bad header packet, a page CRC failure or a gap in the packets.
    case corrupt(String)
    /// The stream ends before its last page.
    case truncated
    /// The decoded audio would exceed the caller's cap.
    case tooLong(limitSamples: Int)
    /// libopus refused (bad argument, internal error).
    case codec(code: Int32, String)
    /// A WAV file that is not 8/16/24-bit integer or 32-bit float PCM, or is damaged.
    case unsupportedWAV(String)

    public var description: String {
        switch self {
        case .corrupt(let why): return "corrupt Ogg/Opus: \(why)"
        case .truncated: return "Ogg/Opus stream is truncated (no end-of-stream page)"
        case .tooLong(let limit): return "decoded audio exceeds \(limit) samples"
        case .codec(let code, let what): return "opus error \(code): \(what)"
        case .unsupportedWAV(let why): return "unsupported WAV: \(why)"
        }
    }
}
