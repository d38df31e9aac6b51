import PostboxCoding

/// Registers SyncCore's stored types with the PostboxCoding registry; call once before opening an account's Postbox.
public func registerSyncCoreTypes() {
    declareEncodable(TelegramUser.self)
    declareEncodable(TelegramGroup.self)
    declareEncodable(TelegramChannel.self)
    declareEncodable(ChannelState.self)
    declareEncodable(TelegramUserPresence.self)
    declareEncodable(TelegramMediaImage.self)
    declareEncodable(TelegramMediaFile.self)
    declareEncodable(TelegramMediaAction.self)
    declareEncodable(TextEntitiesMessageAttribute.self)
    declareEncodable(ReplyMessageAttribute.self)
    declareEncodable(OutgoingMessageInfoAttribute.self)
    declareEncodable(EditedMessageAttribute.self)
    declareEncodable(ForwardSourceInfoAttribute.self)
    declareEncodable(SendFailureAttribute.self)
    declareEncodable(PendingForwardAttribute.self)
    declareEncodable(NotificationMessageAttribute.self)
    declareEncodable(ViewCountMessageAttribute.self)
    declareEncodable(AuthorSignatureMessageAttribute.self)
    declareEncodable(ConsumableContentMessageAttribute.self)
    declareEncodable(ReactionsMessageAttribute.self)
    declareEncodable(PeerNotificationSettingsEntry.self)
}
