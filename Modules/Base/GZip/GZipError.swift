/// Why `GZip.decompress` refused its input.
public enum GZipError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a gzip/zlib stream, bad deflate data, a checksum mismatch or a truncated stream.
    case corrupt(String)
    /// The stream inflates to more than the caller's cap.
    case outputLimitExceeded(limit: Int)
    /// zlib itself failed (out of memory, version mismatch).
    case zlib(code: Int32, String)
    /// The caller passed an impossible argument.
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .corrupt(let why): return "corrupt compressed data: \(why)"
        case .outputLimitExceeded(let limit): return "decompressed data exceeds the limit of \(limit) bytes"
        case .zlib(let code, let what): return "zlib error \(code): \(what)"
        case .invalidArgument(let what): return "invalid argument: \(what)"
        }
    }
}
