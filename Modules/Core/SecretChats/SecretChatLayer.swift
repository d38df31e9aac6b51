/// Secret layers (core.telegram.org "End-to-End Encryption", Updating to new layers; Telegram-iOS
/// `SecretChatLayerNegotiation.swift`): each side announces its own layer with
/// `decryptedMessageActionNotifyLayer` as its first message; both then write
/// `min(own, other's)` into every `decryptedMessageLayer`, and a higher layer in a received message's `layer`
/// field is taken as the other side's new layer.
public enum SecretChatLayer {
    /// The newest layer of `Schemas/tl/secret_api.tl` this client speaks.
    public static let current: Int32 = 144
    /// The oldest layer this client accepts: MTProto 2.0 end-to-end encryption and `decryptedMessage` with
    /// `flags` (layer 73); older peers (MTProto 1.0, SHA-1 message keys) are refused.
    public static let minimum: Int32 = 73

    /// The layer messages are written in, given what the other side announced (nil: nothing yet).
    static func negotiated(peer: Int32?) -> Int32 { min(current, max(minimum, peer ?? minimum)) }
}
