public import Postbox
public import PostboxCoding

/// How many times a channel post was seen (Telegram-iOS `ViewCountMessageAttribute`; the message's `views`).
public struct ViewCountMessageAttribute: MessageAttribute, Hashable {
    public var count: Int32

    public init(count: Int32) {
        self.count = count
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        count = try decoder.decodeInt32(forKey: "c")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt32(count, forKey: "c")
    }
}

/// The signature under a channel post (Telegram-iOS `AuthorSignatureMessageAttribute`; the message's `post_author`,
/// present when the channel signs its posts).
public struct AuthorSignatureMessageAttribute: MessageAttribute, Hashable {
    public var signature: String

    public init(signature: String) {
        self.signature = signature
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        signature = try decoder.decodeString(forKey: "s")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeString(signature, forKey: "s")
    }
}
