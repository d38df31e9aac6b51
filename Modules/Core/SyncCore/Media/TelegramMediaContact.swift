public import Postbox
public import PostboxCoding

/// A shared contact: a name and phone number, and the Telegram user behind the number when there is one
/// (Telegram-iOS `TelegramMediaContact`; the API's `messageMediaContact`).
public struct TelegramMediaContact: Media, Hashable, Codable {
    public var firstName: String
    public var lastName: String
    public var phoneNumber: String
    /// The user with this number, when the server knows one (`user_id` ≠ 0).
    public var peerId: PeerId?
    /// The contact's vCard text, when the sender attached one.
    public var vCardData: String?

    public init(firstName: String, lastName: String, phoneNumber: String, peerId: PeerId?, vCardData: String?) {
        self.firstName = firstName
        self.lastName = lastName
        self.phoneNumber = phoneNumber
        self.peerId = peerId
        self.vCardData = vCardData
    }

    /// The name as a card shows it: first and last, whichever exist.
    public var displayName: String {
        [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ")
    }

    public var id: MediaId? { nil }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        self = try decoder.decodeCodable(TelegramMediaContact.self, forKey: "m")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeCodable(self, forKey: "m")
    }

    public func isEqual(to other: Media) -> Bool { (other as? TelegramMediaContact) == self }
}
