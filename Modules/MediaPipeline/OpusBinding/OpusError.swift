/// Why an Ogg/Opus stream or a WAV file could not be read or written.
public enum OpusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not an Ogg/Opus stream, a bad header packet, a page CRC failure or a gap in the packets.
    case corrupt(String)
    /// The stream ends before its last page.
    case truncated
    /// Decoding passed the cap on samples per channel (the caller's, or the default for the input's size).
    case tooLong(limitSamples: Int)
    /// The stream's last page claims more samples per channel than the cap: refused before decoding.
    case claimsTooLong(claimedSamples: Int, limitSamples: Int, inputSize: Int)
    /// libopus refused (bad argument, internal error).
    case codec(code: Int32, String)
    /// A WAV file that is not 8/16/24-bit integer or 32-bit float PCM, or is damaged.
    case unsupportedWAV(String)

    public var description: String {
        switch self {
        case .corrupt(let why): return "corrupt Ogg/Opus: \(why)"
        case .truncated: return "Ogg/Opus stream is truncated (no end-of-stream page)"
        case .tooLong(let limit):
            return "Ogg/Opus audio decodes past the limit of \(limit) samples per channel (\(Self.time(limit))) "
                + "before its end; refused (pass a larger maxSamples if so long a recording is expected)"
        case .claimsTooLong(let claimed, let limit, let size):
            return "Ogg/Opus stream of \(size) bytes claims \(Self.time(claimed)) of audio at its last page, over "
                + "the limit of \(Self.time(limit)) (\(limit) samples per channel); refused before decoding "
                + "(pass a larger maxSamples if so long a recording is expected)"
        case .codec(let code, let what): return "opus error \(code): \(what)"
        case .unsupportedWAV(let why): return "unsupported WAV: \(why)"
        }
    }

    /// `m:ss.s` of 48 kHz samples.
    static func time(_ samples: Int) -> String {
        let tenths = samples / 4_800
        let seconds = tenths / 10
        return "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60).\(tenths % 10)"
    }
}
