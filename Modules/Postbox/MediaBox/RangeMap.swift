/// The byte ranges of a resource already on disk: sorted, disjoint, non-adjacent half-open ranges
/// (Telegram-iOS Postbox MediaBox `_partial.meta`, a `RangeSet<Int64>`).
public struct RangeMap: Equatable, Sendable {
    /// The stored ranges, ascending.
    public private(set) var ranges: [Range<Int64>] = []

    public init() {}

    /// Adds `range`, merging with ranges it overlaps or touches.
    public mutating func insert(_ range: Range<Int64>) {
        guard !range.isEmpty else { return }
        var lower = range.lowerBound
        var upper = range.upperBound
        var result: [Range<Int64>] = []
        for existing in ranges {
            if existing.upperBound < lower || existing.lowerBound > upper {
                result.append(existing)
            } else {
                lower = min(lower, existing.lowerBound)
                upper = max(upper, existing.upperBound)
            }
        }
        result.append(lower..<upper)
        ranges = result.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Whether every byte of `range` is stored.
    public func contains(_ range: Range<Int64>) -> Bool {
        range.isEmpty || ranges.contains { $0.lowerBound <= range.lowerBound && range.upperBound <= $0.upperBound }
    }

    /// Bytes stored.
    public var count: Int64 { ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) } }

    /// The meta-file form: count, then (lower, upper) pairs, little-endian Int64.
    public func serialize() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + ranges.count * 16)
        func append(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(Int64(ranges.count))
        for range in ranges {
            append(range.lowerBound)
            append(range.upperBound)
        }
        return bytes
    }

    /// Reads the meta-file form; `nil` when damaged (wrong length, unordered or overlapping ranges).
    public init?(serialized bytes: [UInt8]) {
        guard bytes.count >= 8, (bytes.count - 8) % 16 == 0 else { return nil }
        func load(_ offset: Int) -> Int64 {
            bytes.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: Int64.self)) }
        }
        let count = load(0)
        guard count >= 0, Int(count) == (bytes.count - 8) / 16 else { return nil }
        var previousUpper: Int64 = -1
        for index in 0..<Int(count) {
            let lower = load(8 + index * 16)
            let upper = load(16 + index * 16)
            guard lower >= 0, lower < upper, lower > previousUpper else { return nil }
            ranges.append(lower..<upper)
            previousUpper = upper
        }
    }
}
