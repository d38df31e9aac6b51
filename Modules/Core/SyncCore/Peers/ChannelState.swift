public import PostboxCoding

/// Where a channel's own update sequence stands (Telegram-iOS `SyncCore_ChannelState.swift`), kept per channel in
/// Postbox's peer chat state table (`Transaction.setPeerChatState`) in the same transaction as the updates it
/// accounts for (core.telegram.org "Working with updates": each channel has its own pts).
public struct ChannelState: PostboxCoding, Hashable, Sendable {
    /// The channel's pts after the last update applied.
    public var pts: Int32

    public init(pts: Int32) {
        self.pts = pts
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        pts = try decoder.decodeInt32(forKey: "pts")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt32(pts, forKey: "pts")
    }
}
