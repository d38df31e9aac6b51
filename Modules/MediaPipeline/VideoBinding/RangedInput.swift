import CFFmpeg
import Glibc

/// The bytes FFmpeg reads through a custom `AVIOContext`: reads and seeks never leave `0..<source.count`, so a
/// container that points outside the file gets an end-of-file, never memory past it. A read of a byte the source does
/// not have fails (`AVERROR(EIO)`) and records the range it asked for in `missing`; the session checks `missing`
/// after every FFmpeg call, because FFmpeg treats some failed reads as the end of the stream.
final class RangedInput {
    let source: VideoBytes
    var position = 0
    /// The first range a read wanted and the source did not have.
    private(set) var missing: Range<Int>?

    init(_ source: VideoBytes) { self.source = source }

    /// `read_packet`: up to `size` bytes into `buffer`, `AVERROR_EOF` at the end, `AVERROR(EIO)` when the byte at
    /// the position is missing.
    func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int32) -> Int32 {
        let wanted = min(Int(size), source.count - position)
        guard wanted > 0 else { return FFmpegErrors.endOfFile }
        let copied = min(wanted, source.read(position, UnsafeMutableRawBufferPointer(start: buffer, count: wanted)))
        guard copied > 0 else {
            if missing == nil { missing = position..<position + wanted }
            return FFmpegErrors.inputOutput
        }
        position += copied
        return Int32(copied)
    }

    /// `seek`: `AVSEEK_SIZE` answers the length; other targets outside the bytes are refused.
    func seek(offset: Int64, whence: Int32) -> Int64 {
        let mode = whence & ~Int32(AVSEEK_FORCE)
        if mode == AVSEEK_SIZE { return Int64(source.count) }
        let base: Int64
        switch mode {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = Int64(position)
        case SEEK_END: base = Int64(source.count)
        default: return Int64(FFmpegErrors.invalidArgument)
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0, target <= Int64(source.count) else {
            return Int64(FFmpegErrors.invalidArgument)
        }
        position = Int(target)
        return target
    }

    /// Throws `needsBytes` when a read so far wanted a missing byte.
    func checkPresent() throws(VideoError) {
        if let missing { throw .needsBytes(missing) }
    }
}
