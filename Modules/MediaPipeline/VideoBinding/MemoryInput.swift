import CFFmpeg
import Foundation

/// The bytes FFmpeg reads through a custom `AVIOContext`: reads and seeks never leave `bytes`, so a container that
/// points outside the file gets an end-of-file, never memory past it.
final class MemoryInput {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// `read_packet`: up to `size` bytes into `buffer`, or `AVERROR_EOF` at the end.
    func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int32) -> Int32 {
        let count = min(Int(size), bytes.count - position)
        guard count > 0 else { return FFmpegErrors.endOfFile }
        bytes.withUnsafeBufferPointer { source in
            buffer.update(from: source.baseAddress! + position, count: count)
        }
        position += count
        return Int32(count)
    }

    /// `seek`: `AVSEEK_SIZE` answers the length; other targets outside the bytes are refused.
    func seek(offset: Int64, whence: Int32) -> Int64 {
        let mode = whence & ~Int32(AVSEEK_FORCE)
        if mode == AVSEEK_SIZE { return Int64(bytes.count) }
        let base: Int64
        switch mode {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = Int64(position)
        case SEEK_END: base = Int64(bytes.count)
        default: return Int64(FFmpegErrors.invalidArgument)
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0, target <= Int64(bytes.count) else {
            return Int64(FFmpegErrors.invalidArgument)
        }
        position = Int(target)
        return target
    }
}

/// FFmpeg's error codes that are macros Swift cannot import, and its messages.
enum FFmpegErrors {
    /// `AVERROR_EOF`: `-MKTAG('E','O','F',' ')`.
    static let endOfFile: Int32 = -Int32(bitPattern: 0x2046_4F45)
    /// `AVERROR(EAGAIN)`.
    static let again: Int32 = -EAGAIN
    /// `AVERROR(EINVAL)`.
    static let invalidArgument: Int32 = -EINVAL

    /// `av_strerror`'s text for `code`.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "FFmpeg error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
