import Glibc

/// Reads of a resource's stored bytes while it downloads: the ranges on disk when the reader was made (the whole
/// file once it is complete) and one open descriptor, so a decoder can read the bytes it needs many times without
/// reopening the file or its range map (Telegram-iOS `MediaBoxFile.read(range:)` over a partial file).
///
/// `@unchecked Sendable`: the ranges never change and `pread` on one descriptor is safe from any thread; the
/// descriptor is closed when the reader goes.
public final class MediaResourceReader: @unchecked Sendable {
    /// The stored ranges this reader may read.
    public let ranges: RangeMap
    private let descriptor: Int32

    init(path: String, ranges: RangeMap) {
        descriptor = ranges.count > 0 ? open(path, O_RDONLY) : -1
        self.ranges = descriptor >= 0 ? ranges : RangeMap()
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Copies the stored bytes from `offset` on — at most `buffer.count`, stopping where the stored range ends — into
    /// `buffer`; returns how many (0 when the byte at `offset` is not stored, or the file cannot be read).
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let range = ranges.ranges.first(where: { $0.contains(offset) }), let base = buffer.baseAddress else {
            return 0
        }
        let wanted = Int(min(Int64(buffer.count), range.upperBound - offset))
        var done = 0
        while done < wanted {
            let result = pread(descriptor, base + done, wanted - done, off_t(offset) + off_t(done))
            guard result > 0 else { break }
            done += result
        }
        return done
    }
}

extension MediaBox {
    /// A reader of what is stored of `id` now: the complete file, or the partial file's stored ranges (none when
    /// nothing is stored).
    public func reader(_ id: MediaResourceId) -> MediaResourceReader {
        var info = stat()
        if stat(completedPath(id), &info) == 0 {
            var whole = RangeMap()
            whole.insert(0..<Int64(info.st_size))
            return MediaResourceReader(path: completedPath(id), ranges: whole)
        }
        return MediaResourceReader(path: partialPath(id), ranges: rangeMap(id))
    }
}
