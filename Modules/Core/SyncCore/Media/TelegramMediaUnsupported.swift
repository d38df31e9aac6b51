public import Postbox
public import PostboxCoding

/// Media of a kind this version does not model yet (a game, an invoice, a story, a giveaway, …), kept whole: the
/// constructor's TL bytes as the server sent them, so a later version can read and draw it without fetching the
/// message again (Telegram-iOS `TelegramMediaUnsupported`, which keeps nothing; here nothing is dropped).
public struct TelegramMediaUnsupported: Media, Hashable, Codable {
    /// The TL constructor's name (`messageMediaGame`), for what a client shows in its place.
    public var constructor: String
    /// The boxed `MessageMedia` value's wire bytes.
    public var bytes: [UInt8]

    public init(constructor: String, bytes: [UInt8]) {
        self.constructor = constructor
        self.bytes = bytes
    }

    public var id: MediaId? { nil }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        constructor = decoder.decodeStringForKey("c", orElse: "")
        bytes = decoder.decodeOptionalBytesForKey("b") ?? []
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeString(constructor, forKey: "c")
        encoder.encodeBytes(bytes, forKey: "b")
    }

    public func isEqual(to other: Media) -> Bool { (other as? TelegramMediaUnsupported) == self }
}
