/// How a file is cut for `upload.saveFilePart` / `upload.saveBigFilePart` (core.telegram.org "Uploading and
/// Downloading Files"; part sizes as Telegram-iOS `MultipartUpload.swift` picks them): a file over 10 MB goes in
/// 512 KB big-file parts with their total announced; a smaller one in 256 KB parts (Telegram-iOS's "larger parts"),
/// or as one part when it is smaller than that. Every part but the last has the same size; at most 4,000 parts.
public struct UploadPlan: Equatable, Sendable, Codable {
    /// Above this many bytes a file is a "big file" (`saveBigFilePart`, `inputFileBig`).
    public static let bigFileThreshold: Int64 = 10 * 1024 * 1024
    public static let bigPartSize = 512 * 1024
    public static let smallPartSize = 256 * 1024
    public static let maximumParts = 4000

    public let size: Int64
    public let partSize: Int
    public let isBig: Bool

    /// The plan for a file of `size` bytes; `nil` when it is empty or needs more than 4,000 parts (over 2,000 MB).
    public init?(size: Int64) {
        guard size > 0 else { return nil }
        isBig = size > Self.bigFileThreshold
        partSize = isBig ? Self.bigPartSize : Self.smallPartSize
        self.size = size
        guard partCount <= Self.maximumParts else { return nil }
    }

    public var partCount: Int { Int((size + Int64(partSize) - 1) / Int64(partSize)) }

    /// The bytes of part `index` within the file.
    public func range(ofPart index: Int) -> Range<Int64> {
        let start = Int64(index) * Int64(partSize)
        return start..<min(size, start + Int64(partSize))
    }

    /// The parts still to send, in order, when `acknowledged` are on the server already.
    public func remainingParts(acknowledged: Set<Int>) -> [Int] {
        (0..<partCount).filter { !acknowledged.contains($0) }
    }
}
