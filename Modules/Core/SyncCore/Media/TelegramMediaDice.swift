public import Postbox
public import PostboxCoding

/// An animated emoji with a random value the server chose: 🎲 🎯 🎳 1–6, 🏀 ⚽ 1–5, 🎰 1–64 (Telegram-iOS
/// `TelegramMediaDice`; the API's `messageMediaDice`).
public struct TelegramMediaDice: Media, Hashable, Codable {
    public var emoji: String
    /// The value the server rolled; `nil` while our own roll is being sent.
    public var value: Int32?

    public init(emoji: String, value: Int32? = nil) {
        self.emoji = emoji
        self.value = value
    }

    public var id: MediaId? { nil }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        self = try decoder.decodeCodable(TelegramMediaDice.self, forKey: "m")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeCodable(self, forKey: "m")
    }

    public func isEqual(to other: Media) -> Bool { (other as? TelegramMediaDice) == self }
}
