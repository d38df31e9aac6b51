import Foundation
import Hashing
import ServerStore
import TLRuntime
import TelegramApi

/// The contact list (core.telegram.org methods `contacts.importContacts`, `contacts.getContacts`,
/// `contacts.deleteContacts`, `contacts.deleteByPhones`, `contacts.addContact`). Each account's list is its own; a
/// user appears with `contact` (and `mutual_contact` when they have the caller too) to whoever has them.
extension ServerBackend {
    /// The most contacts one `contacts.importContacts` may carry (`LIMIT_INVALID` above; Telegram-iOS sends batches
    /// of 500, `importBatchCount` in `ContactSyncManager.swift`).
    public static let importContactsLimit = 500
    /// The most users one `contacts.deleteContacts` or phones one `contacts.deleteByPhones` names.
    static let deleteContactsLimit = 500

    /// Imports the call's phone contacts who have an account: the first `FloodControl.contactImportsPerCall` of the
    /// call are looked at, the others' `client_id`s come back in `retry_contacts` for a later call.
    func importContacts(
        _ call: Api.functions.contacts.importContacts, caller: Caller
    ) throws -> Api.contacts.ImportedContacts {
        guard call.contacts.count <= Self.importContactsLimit else { throw APIError.limitInvalid }
        let perCall = max(0, flood.configuration.contactImportsPerCall)
        var imported: [Api.ImportedContact] = []
        var users: [UserRecord] = []
        var retry: [Int64] = []
        let date = now
        _ = try store.write(
            { [self] tx throws -> Push? in
                for (index, input) in call.contacts.enumerated() {
                    guard case .inputPhoneContact(let contact) = input else { continue }
                    guard index < perCall else {
                        retry.append(contact.clientId)
                        continue
                    }
                    guard let user = try tx.user(phone: Self.normalizedPhone(contact.phone)) else { continue }
                    try tx.addContact(
                        owner: caller.userId, userId: user.id, firstName: contact.firstName, lastName: contact.lastName)
                    imported.append(.importedContact(.init(userId: user.id, clientId: contact.clientId)))
                    users.append(user)
                }
                return try contactPush(owner: caller.userId, users: users, added: true, date: date, tx: tx)
            }, then: { [self] push in send(push.map { [$0] } ?? [], caller: caller) })
        return .importedContacts(
            .init(
                imported: imported, popularInvites: [], retryContacts: retry,
                users: try store.read { tx in try users.map { try apiUser($0, viewer: caller.userId, tx: tx) } }))
    }

    /// The caller's contacts, or `contactsNotModified` when `hash` is the hash of them (`PaginationHash.contacts`,
    /// over `saved_count` 0: tg-server keeps no phone book of its own).
    func getContacts(_ call: Api.functions.contacts.getContacts, caller: Caller) throws -> Api.contacts.Contacts {
        let ids = try store.read { tx in try tx.contacts(owner: caller.userId) }
        if call.hash != 0, call.hash == PaginationHash.contacts(savedCount: 0, userIds: ids) {
            return .contactsNotModified
        }
        let (contacts, users) = try store.read { tx in
            let records = try tx.users(ids: ids).sorted { $0.id < $1.id }
            let contacts = try records.map { record -> Api.Contact in
                .contact(.init(userId: record.id, mutual: try tx.isContact(owner: record.id, userId: caller.userId)))
            }
            return (contacts, try records.map { try apiUser($0, viewer: caller.userId, tx: tx) })
        }
        return .contacts(.init(contacts: contacts, savedCount: 0, users: users))
    }

    /// Removes users from the caller's contacts; the answer carries them as the caller now sees them, with an
    /// `updatePeerSettings` for each that was a contact (none when nothing changed).
    func deleteContacts(_ call: Api.functions.contacts.deleteContacts, caller: Caller) throws -> Api.Updates {
        guard call.id.count <= Self.deleteContactsLimit else { throw APIError.limitInvalid }
        let date = now
        let (users, removed, _) = try store.write(
            { [self] tx throws -> ([Api.User], [UserRecord], Push?) in
                var named: [UserRecord] = []
                var removed: [UserRecord] = []
                for input in call.id {
                    guard let user = try resolve(input, caller: caller, tx: tx), user.id != caller.userId else {
                        continue
                    }
                    named.append(user)
                    if try tx.deleteContact(owner: caller.userId, userId: user.id) { removed.append(user) }
                }
                return (
                    try named.map { try apiUser($0, viewer: caller.userId, tx: tx) }, removed,
                    try contactPush(owner: caller.userId, users: removed, added: false, date: date, tx: tx)
                )
            }, then: { [self] in send($0.2.map { [$0] } ?? [], caller: caller) })
        return .updates(
            .init(
                updates: Self.contactUpdates(removed.map(\.id), added: false), users: users, chats: [], date: date,
                seq: 0))
    }

    /// Removes the contacts with these phone numbers from the caller's contacts.
    func deleteByPhones(_ call: Api.functions.contacts.deleteByPhones, caller: Caller) throws -> [UInt8] {
        guard call.phones.count <= Self.deleteContactsLimit else { throw APIError.limitInvalid }
        let date = now
        _ = try store.write(
            { [self] tx throws -> Push? in
                var removed: [UserRecord] = []
                for phone in call.phones {
                    guard let user = try tx.user(phone: Self.normalizedPhone(phone)),
                        try tx.deleteContact(owner: caller.userId, userId: user.id)
                    else { continue }
                    removed.append(user)
                }
                return try contactPush(owner: caller.userId, users: removed, added: false, date: date, tx: tx)
            }, then: { [self] push in send(push.map { [$0] } ?? [], caller: caller) })
        return Reply.bool(true)
    }

    /// Adds a user the caller knows (by id and access hash) to their contacts under the given name;
    /// `CONTACT_ID_INVALID` for the caller or an unknown user, `FIRSTNAME_INVALID` for an empty first name.
    func addContact(_ call: Api.functions.contacts.addContact, caller: Caller) throws -> Api.Updates {
        guard !call.firstName.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw APIError.badRequest("FIRSTNAME_INVALID")
        }
        try TextLimit.firstName.check(call.firstName)
        try TextLimit.lastName.check(call.lastName)
        let date = now
        let (user, _) = try store.write(
            { [self] tx throws -> (Api.User?, Push?) in
                guard let user = try resolve(call.id, caller: caller, tx: tx), user.id != caller.userId else {
                    return (nil, nil)
                }
                try tx.addContact(
                    owner: caller.userId, userId: user.id, firstName: call.firstName, lastName: call.lastName)
                return (
                    try apiUser(user, viewer: caller.userId, tx: tx),
                    try contactPush(owner: caller.userId, users: [user], added: true, date: date, tx: tx)
                )
            }, then: { [self] in send($0.1.map { [$0] } ?? [], caller: caller) })
        guard let user, case .user(let added) = user else { throw APIError.badRequest("CONTACT_ID_INVALID") }
        return .updates(
            .init(updates: Self.contactUpdates([added.id], added: true), users: [user], chats: [], date: date, seq: 0))
    }
}
