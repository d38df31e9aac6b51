public import Postbox
public import PostboxCoding

/// How an outgoing forward is sent (Telegram-iOS `ForwardOptionsMessageAttribute`): `hideNames` is
/// `messages.forwardMessages`' `drop_author` (a plain copy, no "Forwarded from"), `hideCaptions` its
/// `drop_media_captions` (only with `hideNames`, as Telegram-iOS offers it). Kept on the local copy until the server's
/// replaces it.
public struct ForwardOptionsMessageAttribute: MessageAttribute, Hashable {
    public var hideNames: Bool
    public var hideCaptions: Bool

    public init(hideNames: Bool, hideCaptions: Bool) {
        self.hideNames = hideNames
        self.hideCaptions = hideCaptions
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        hideNames = decoder.decodeInt32ForKey("hn", orElse: 0) != 0
        hideCaptions = decoder.decodeInt32ForKey("hc", orElse: 0) != 0
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt32(hideNames ? 1 : 0, forKey: "hn")
        encoder.encodeInt32(hideCaptions ? 1 : 0, forKey: "hc")
    }
}
