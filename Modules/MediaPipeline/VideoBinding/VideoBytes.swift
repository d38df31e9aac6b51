/// A video's bytes as far as they are present: the file's whole length, and a read that copies the bytes present
/// from an offset — so a video can be probed and its first frame decoded while it is still downloading (Telegram-iOS
/// plays from `MediaBox`'s partial files the same way: `MediaPlayer/Sources/FFMpegMediaFrameSourceContext.swift`
/// reads ranges of a resource and waits for those not yet fetched).
///
/// A decode over a `VideoBytes` never waits: reading a byte that is not present ends it with
/// `VideoError.needsBytes(range)`; the caller fetches that range and decodes again.
public struct VideoBytes: Sendable {
    /// The file's length in bytes (known from the message before any byte is fetched).
    public let count: Int
    /// Copies the bytes present from `offset` on, at most `buffer.count` of them and stopping at the first missing
    /// byte, into `buffer`; returns how many it copied (0 when the byte at `offset` is missing). Called with
    /// `0 <= offset < count`; it may be called many times per decode, on the decoding thread.
    public let read: @Sendable (_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Int

    /// A source of `count` bytes read through `read`.
    public init(count: Int, read: @escaping @Sendable (_ offset: Int, _ buffer: UnsafeMutableRawBufferPointer) -> Int) {
        self.count = max(0, count)
        self.read = read
    }

    /// Every byte of `bytes`, present.
    public static func whole(_ bytes: [UInt8]) -> VideoBytes {
        present(bytes, ranges: [0..<bytes.count])
    }

    /// The bytes of `bytes` within `ranges` present, the rest missing (what a partly downloaded file looks like).
    public static func present(_ bytes: [UInt8], ranges: [Range<Int>]) -> VideoBytes {
        let clipped = ranges.map { $0.clamped(to: 0..<bytes.count) }.filter { !$0.isEmpty }
        return VideoBytes(count: bytes.count) { offset, buffer in
            guard let range = clipped.first(where: { $0.contains(offset) }) else { return 0 }
            let count = min(buffer.count, range.upperBound - offset)
            bytes.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
            }
            return count
        }
    }
}
