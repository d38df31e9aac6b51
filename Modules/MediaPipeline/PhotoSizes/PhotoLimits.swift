/// The bounds a picture must keep to become a photo. `.telegram` holds Telegram's published ones (Bot API
/// `sendPhoto`: at most 10 MB; width and height together at most 10,000; their ratio at most 20).
public struct PhotoLimits: Sendable, Equatable {
    /// The most bytes a picture may have.
    public var maxBytes: Int
    /// The most `width + height` may be.
    public var maxSideSum: Int
    /// The most the longer side may be, as a multiple of the shorter one.
    public var maxAspectRatio: Int

    /// Limits from their three values.
    public init(maxBytes: Int, maxSideSum: Int, maxAspectRatio: Int) {
        self.maxBytes = maxBytes
        self.maxSideSum = maxSideSum
        self.maxAspectRatio = maxAspectRatio
    }

    /// Telegram's: 10 MB, sides summing to at most 10,000 pixels, aspect at most 20.
    public static let telegram = PhotoLimits(maxBytes: 10 << 20, maxSideSum: 10_000, maxAspectRatio: 20)

    /// The rule `width × height` breaks, or nil when it keeps them all.
    public func brokenRule(width: Int, height: Int) -> String? {
        if width < 1 || height < 1 { return "each side must be at least 1 pixel" }
        if width + height > maxSideSum { return "width + height must be at most \(maxSideSum)" }
        if max(width, height) > maxAspectRatio * min(width, height) {
            return "the longer side must be at most \(maxAspectRatio) times the shorter one"
        }
        return nil
    }
}
