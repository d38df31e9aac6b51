public import Postbox
public import PostboxCoding

/// What an outgoing message asks of the server beyond its content (Telegram-iOS
/// `OutgoingContentInfoMessageAttribute`): `disableLinkPreviews` is `messages.sendMessage`'s `no_webpage` (the
/// server then builds no preview for the text's link). Kept on the local copy until the server's replaces it.
public struct OutgoingContentInfoMessageAttribute: MessageAttribute, Hashable {
    public var disableLinkPreviews: Bool

    public init(disableLinkPreviews: Bool) {
        self.disableLinkPreviews = disableLinkPreviews
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        disableLinkPreviews = decoder.decodeInt32ForKey("dlp", orElse: 0) != 0
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt32(disableLinkPreviews ? 1 : 0, forKey: "dlp")
    }
}
