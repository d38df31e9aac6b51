import AccountNetworking
import Network
public import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// Why `updateAddressName` did not set the username.
public enum UpdateAddressNameError: Error, Equatable, Sendable {
    /// The name breaks the format rules (checked before asking the server).
    case invalidFormat(AddressNameFormatError)
    /// The server answered an `rpc_error` with this message (`USERNAME_OCCUPIED`, `USERNAME_INVALID`, …).
    case server(String)
    /// The request did not reach the server or its answer did not come back.
    case network
    /// The updated user could not be stored in the account's Postbox.
    case storage(String)
}

extension Account {
    /// Sets (or, with "", removes) this account's username: `account.updateUsername` (Telegram-iOS
    /// `TelegramCore/Sources/TelegramEngine/Peers/AddressNames.swift`, `_internal_updateAddressName` for the account's
    /// own peer), then stores the user the server returns, so the account's own peer shows the new name at once.
    /// Returns the stored username (`nil` once removed).
    public func updateAddressName(_ name: String) async throws(UpdateAddressNameError) -> String? {
        if let error = checkAddressNameFormat(name, canEmpty: true) { throw .invalidFormat(error) }
        let user: Api.User
        do {
            user = try await network.request(Api.functions.account.updateUsername(username: name))
        } catch NetworkError.rpc(_, let message) {
            throw .server(message)
        } catch {
            throw .network
        }
        let stored = TelegramUser(user)
        do {
            try postbox.transactionSync { tx in try tx.updatePeers([stored]) }
        } catch {
            throw .storage("\(error)")
        }
        return stored.username
    }
}
