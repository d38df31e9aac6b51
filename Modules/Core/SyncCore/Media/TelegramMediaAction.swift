public import Postbox
public import PostboxCoding

/// What a service message says happened (Telegram-iOS `TelegramMediaActionType`); actions the product does not show
/// yet keep the constructor's name in `.unsupported`.
public enum TelegramMediaActionType: Hashable, Sendable, Codable {
    case groupCreated(title: String)
    case addedMembers(peerIds: [PeerId])
    case removedMembers(peerIds: [PeerId])
    case joinedByLink(inviter: PeerId)
    case joinedByRequest
    case titleUpdated(title: String)
    case photoUpdated(image: Bool)
    case pinnedMessageUpdated
    case historyCleared
    case historyScreenshot
    case messageAutoremoveTimeoutUpdated(period: Int32)
    case contactSignUp
    case customText(text: String)
    case unsupported(constructor: String)
}

/// A service message's media: the action it shows (Telegram-iOS `TelegramMediaAction`).
public struct TelegramMediaAction: Media, Hashable {
    public var action: TelegramMediaActionType

    public init(action: TelegramMediaActionType) {
        self.action = action
    }

    public var id: MediaId? { nil }

    /// Peers the action names, so they are stored with the message.
    public var peerIds: [PeerId] {
        switch action {
        case .addedMembers(let ids), .removedMembers(let ids): return ids
        case .joinedByLink(let inviter): return [inviter]
        default: return []
        }
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        action = try decoder.decodeCodable(TelegramMediaActionType.self, forKey: "a")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeCodable(action, forKey: "a")
    }

    public func isEqual(to other: Media) -> Bool { (other as? TelegramMediaAction) == self }
}
