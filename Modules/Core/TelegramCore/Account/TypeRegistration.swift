import PostboxCoding
import SyncCore

/// Registers every type an account's Postbox stores (SyncCore's models and TelegramCore's own state types); the
/// account manager calls it before opening any account.
public func registerTelegramCoreTypes() {
    registerSyncCoreTypes()
    declareEncodable(AuthorizedAccountState.self)
    declareEncodable(UnauthorizedAccountState.self)
    declareEncodable(PendingMessageActionsEntry.self)
    declareEncodable(BlockedPeersEntry.self)
    declareEncodable(ChatInputStates.self)
    declareEncodable(ScheduledMessages.self)
}
