import AccountNetworking
import Network
public import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// Why a contact could not be imported.
public enum ImportContactError: Error, Equatable, Sendable {
    /// The server answered an `rpc_error` with this message.
    case server(String)
    /// The request did not reach the server or its answer did not come back.
    case network
    /// The user could not be stored in the account's Postbox.
    case storage(String)
}

extension Account {
    /// Adds the phone number to this account's contacts (`contacts.importContacts`, Telegram-iOS
    /// `TelegramEngine.Contacts.importContact`) and stores the user the server returns, so chats with them can be
    /// written to; `nil` when nobody has that number.
    public func importContact(
        phone: String, firstName: String, lastName: String = ""
    ) async throws(ImportContactError) -> PeerId? {
        let imported: Api.contacts.ImportedContacts
        do {
            imported = try await network.request(
                Api.functions.contacts.importContacts(
                    contacts: [
                        .inputPhoneContact(.init(clientId: 1, phone: phone, firstName: firstName, lastName: lastName))
                    ]))
        } catch NetworkError.rpc(_, let message) {
            throw .server(message)
        } catch {
            throw .network
        }
        guard case .importedContacts(let contacts) = imported, let user = contacts.users.first else { return nil }
        let stored = TelegramUser(user)
        do {
            try postbox.transactionSync { tx in
                try tx.updatePeers([stored])
                try ContactList.set(stored.id, isContact: true, transaction: tx)
            }
        } catch {
            throw .storage("\(error)")
        }
        return stored.id
    }
}
