import Foundation
public import ImageCore

/// A compressed, randomly accessible store of an animation's frames at one size.
///
/// Mirrors Telegram's `AnimatedStickerDirectFrameSourceCache` / `cacheAnimatedStickerFrames` (Telegram-iOS
/// `submodules/AnimatedStickerNode/Sources/AnimatedStickerFrameSource.swift`,
/// `submodules/TelegramAnimatedStickerNode/Sources/AnimatedStickerUtils.swift`):
/// a frame table up front, each frame stored as `XOR(frame, previous frame)` and compressed. Two choices differ:
/// the codec is Zstandard instead of LZFSE (see `FrameCompressor`), and frames stay lossless premultiplied RGBA
/// instead of YUVA 4:2:0, so a cached frame is bit-identical to rlottie's render. Every `keyframeInterval`-th frame
/// is stored whole, so reaching any frame costs at most that many decodes (sequential playback costs one).
///
/// Any other frame is also stored whole when that packs smaller than its delta (a shape moving over transparency).
///
/// Layout (little-endian): `"TGFC"`, version `UInt32 1`, width, height, frameCount, keyframeInterval (`UInt32`),
/// frameRate (`Float64`), then `frameCount × (UInt32 offset, UInt32 length)` from the start of the file (the length's
/// top bit set for a frame stored whole), then the compressed frames.
///
/// Not thread-safe (it keeps the last decoded frame and a codec context): one reader per thread.
public final class AnimatedStickerFrameCache: AnimatedStickerFrameSource {
    static let magic = Array("TGFC".utf8)
    static let headerSize = 32
    /// Set in a table entry's length when the frame is stored whole rather than as a delta.
    static let wholeFlag: UInt32 = 0x8000_0000
    /// The largest frame side and count a cache file may claim.
    public static let maxSide = 2048
    public static let maxFrames = 10_000

    public let size: PixelSize
    public let frameCount: Int
    public let frameRate: Double
    public let keyframeInterval: Int
    /// The whole cache as stored.
    public let data: [UInt8]
    private let table: [(offset: Int, length: Int, whole: Bool)]
    private let codec = FrameCompressor()
    private var last: (index: Int, pixels: [UInt8])?

    /// Renders every frame of `source` and compresses it into a cache.
    public static func build(
        from source: some AnimatedStickerFrameSource, keyframeInterval: Int = 16, level: Int32 = 3
    ) throws -> AnimatedStickerFrameCache {
        precondition(keyframeInterval >= 1, "keyframeInterval must be ≥ 1")
        let codec = FrameCompressor(level: level)
        var blobs: [(bytes: [UInt8], whole: Bool)] = []
        var previous: [UInt8]?
        for index in 0..<source.frameCount {
            let pixels = try source.frame(at: index).packedRGBA()
            let whole = codec.compress(pixels)
            if index % keyframeInterval == 0 || previous == nil {
                blobs.append((whole, true))
            } else {
                var delta = pixels
                delta.withUnsafeMutableBufferPointer { d in
                    previous!.withUnsafeBufferPointer { p in for i in 0..<d.count { d[i] ^= p[i] } }
                }
                let packed = codec.compress(delta)
                // A moving shape on a transparent canvas often packs smaller whole than as a delta (the XOR leaves
                // the shape twice): keep whichever is smaller; a whole frame also shortens random access.
                blobs.append(packed.count < whole.count ? (packed, false) : (whole, true))
            }
            previous = pixels
        }
        var out = magic
        for value in [1, source.size.width, source.size.height, source.frameCount, keyframeInterval] {
            out += le32(UInt32(value))
        }
        out += le64(source.frameRate.bitPattern)
        var offset = headerSize + blobs.count * 8
        for blob in blobs {
            out += le32(UInt32(offset)) + le32(UInt32(blob.bytes.count) | (blob.whole ? wholeFlag : 0))
            offset += blob.bytes.count
        }
        for blob in blobs { out += blob.bytes }
        return try AnimatedStickerFrameCache(data: out)
    }

    /// Opens a stored cache; every claim of the header and table is checked against the data.
    public init(data: [UInt8]) throws(AnimatedStickerError) {
        guard data.count >= Self.headerSize, Array(data[0..<4]) == Self.magic else { throw .cache("not a frame cache") }
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(data[at + $1]) << (8 * $1) } }
        guard u32(4) == 1 else { throw .cache("unknown version \(u32(4))") }
        let width = u32(8), height = u32(12), count = u32(16), interval = u32(20)
        let rate = Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(data[24 + $1]) << (8 * $1) })
        guard (1...Self.maxSide).contains(width), (1...Self.maxSide).contains(height),
            (1...Self.maxFrames).contains(count), interval >= 1, rate.isFinite, rate > 0
        else { throw .cache("bad header \(width)×\(height), \(count) frames, interval \(interval), \(rate) fps") }
        guard data.count >= Self.headerSize + count * 8 else { throw .cache("frame table runs past the data") }
        var table: [(Int, Int, Bool)] = []
        table.reserveCapacity(count)
        for i in 0..<count {
            let offset = u32(Self.headerSize + i * 8), field = u32(Self.headerSize + i * 8 + 4)
            let whole = UInt32(field) & Self.wholeFlag != 0, length = field & 0x7FFF_FFFF
            guard offset >= Self.headerSize + count * 8, length > 0, offset <= data.count - length else {
                throw .cache("frame \(i) at \(offset)+\(length) lies outside the data")
            }
            guard whole || i > 0 else { throw .cache("the first frame is a delta") }
            table.append((offset, length, whole))
        }
        self.size = PixelSize(width: width, height: height)
        self.frameCount = count
        self.frameRate = rate
        self.keyframeInterval = interval
        self.data = data
        self.table = table
    }

    /// Compressed bytes, for size comparisons.
    public var compressedSize: Int { data.count }
    /// Frames stored as deltas against their predecessor (the rest are stored whole).
    public var deltaFrameCount: Int { table.filter { !$0.whole }.count }
    /// What the frames take uncompressed.
    public var rawSize: Int { size.width * size.height * 4 * frameCount }

    public func frame(at index: Int) throws -> Bitmap {
        guard (0..<frameCount).contains(index) else {
            throw AnimatedStickerError.frameOutOfRange(index, count: frameCount)
        }
        let pixels = try pixels(at: index)
        return Bitmap(width: size.width, height: size.height, bytesPerRow: size.width * 4, premultipliedRGBA: pixels)!
    }

    private func pixels(at index: Int) throws(AnimatedStickerError) -> [UInt8] {
        // Start from the last decoded frame when it lies between the nearest whole frame and the target, else from
        // that whole frame (at most `keyframeInterval` back).
        var keyframe = index
        while !table[keyframe].whole { keyframe -= 1 }
        var current: [UInt8]
        var start: Int
        if let last, last.index <= index, last.index >= keyframe {
            if last.index == index { return last.pixels }
            current = last.pixels
            start = last.index + 1
        } else {
            current = [UInt8](repeating: 0, count: size.width * size.height * 4)
            try decode(keyframe, into: &current, delta: false)
            start = keyframe + 1
        }
        if start <= index {
            var scratch = [UInt8](repeating: 0, count: current.count)
            for i in start...index {
                try decode(i, into: &scratch, delta: true)
                current.withUnsafeMutableBufferPointer { c in
                    scratch.withUnsafeBufferPointer { s in
                        // Word-wise XOR: eight bytes at a time.
                        let words = c.count / 8
                        let cw = UnsafeMutableRawPointer(c.baseAddress!).assumingMemoryBound(to: UInt64.self)
                        let sw = UnsafeRawPointer(s.baseAddress!).assumingMemoryBound(to: UInt64.self)
                        for w in 0..<words { cw[w] ^= sw[w] }
                        for b in words * 8..<c.count { c[b] ^= s[b] }
                    }
                }
            }
        }
        last = (index, current)
        return current
    }

    private func decode(_ index: Int, into target: inout [UInt8], delta: Bool) throws(AnimatedStickerError) {
        let entry = table[index]
        let ok = data.withUnsafeBytes { raw in
            target.withUnsafeMutableBytes { out in
                codec.decompress(
                    UnsafeRawBufferPointer(rebasing: raw[entry.offset..<entry.offset + entry.length]), into: out)
            }
        }
        guard ok else { throw .cache("frame \(index) does not decompress to \(target.count) bytes") }
    }
}

func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
