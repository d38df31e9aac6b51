import CFFmpeg
import Glibc

/// FFmpeg's error codes that are macros Swift cannot import, and its messages.
enum FFmpegErrors {
    /// `AVERROR_EOF`: `-MKTAG('E','O','F',' ')`.
    static let endOfFile: Int32 = -Int32(bitPattern: 0x2046_4F45)
    /// `AVERROR(EAGAIN)`.
    static let again: Int32 = -EAGAIN
    /// `AVERROR(EINVAL)`.
    static let invalidArgument: Int32 = -EINVAL
    /// `AVERROR(EIO)`: what a read of a byte not yet present answers.
    static let inputOutput: Int32 = -EIO

    /// `av_strerror`'s text for `code`.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "FFmpeg error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
