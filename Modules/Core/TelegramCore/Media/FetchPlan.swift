public import MediaBox

/// Which `upload.getFile` windows a download still needs (core.telegram.org "Uploading and Downloading Files": offset
/// and limit multiples of 4 KB, the limit dividing 1 MB, a window never crossing a 1 MB boundary). Windows are
/// `partSize`-aligned (512 KB by default), so every window obeys the rules; what `have` already holds is skipped, so a
/// download resumes where it stopped.
public struct FetchPlan: Equatable, Sendable {
    public static let defaultPartSize = 512 * 1024

    public let partSize: Int
    /// The file's size, when known; without it windows go on until one comes back short.
    public let size: Int64?

    /// A plan of `partSize`-byte windows: a power of two from 4 KB to 1 MB, so the windows meet the rules above.
    public init(size: Int64?, partSize: Int = defaultPartSize) {
        precondition(
            partSize >= 4096 && partSize <= 1 << 20 && partSize & (partSize - 1) == 0,
            "partSize: a power of two, 4 KB…1 MB")
        self.size = size
        self.partSize = partSize
    }

    /// The window holding byte `offset`.
    public func window(containing offset: Int64) -> Range<Int64> {
        let start = offset / Int64(partSize) * Int64(partSize)
        return start..<start + Int64(partSize)
    }

    /// The windows of a file of known `size` not wholly present in `have`, in order (empty when the size is unknown:
    /// then windows go one after another until one comes back short).
    public func missingWindows(have: RangeMap) -> [Range<Int64>] {
        guard let size else { return [] }
        return stride(from: Int64(0), to: size, by: partSize).compactMap { start in
            let needed = start..<min(start + Int64(partSize), size)
            return have.contains(needed) ? nil : start..<start + Int64(partSize)
        }
    }

    /// The windows holding any byte of `range` (clipped to the size when known) not wholly present in `have`, in
    /// order: what a streaming read fetches before the decode that asked for `range` can go on.
    public func missingWindows(covering range: Range<Int64>, have: RangeMap) -> [Range<Int64>] {
        let upper = size.map { min(range.upperBound, $0) } ?? range.upperBound
        guard range.lowerBound >= 0, range.lowerBound < upper else { return [] }
        let first = window(containing: range.lowerBound).lowerBound
        return stride(from: first, to: upper, by: partSize).compactMap { start in
            let needed = start..<(size.map { min(start + Int64(partSize), $0) } ?? start + Int64(partSize))
            return have.contains(needed) ? nil : start..<start + Int64(partSize)
        }
    }
}
