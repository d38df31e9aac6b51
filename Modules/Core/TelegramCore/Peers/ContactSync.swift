import Hashing
public import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// What `Account.syncContacts` found.
public enum ContactSyncOutcome: Equatable, Sendable {
    /// The server answered `contacts.contactsNotModified`: the stored contacts are the server's.
    case notModified
    /// The stored contacts were replaced by the server's list of this many users.
    case replaced(count: Int)
}

/// The account's contact list as Postbox stores it (Telegram-iOS `ContactTable`, `syncContactsOnce` in
/// `ContactManagement.swift`): the contact peer ids, the server's `saved_count`, and the hash of both that
/// `contacts.getContacts` sends.
public enum ContactList {
    /// The `contacts.getContacts` hash of what `tx` stores (core.telegram.org `contacts.getContacts`: the last
    /// `saved_count`, then the contacts' user ids ascending; Telegram-iOS `hashForCountAndIds`).
    public static func hash(transaction tx: Transaction) throws -> Int64 {
        let ids = try tx.getContactPeerIds().filter { $0.namespace == Namespaces.Peer.cloudUser }.map(\.id.rawValue)
        return PaginationHash.contacts(savedCount: try tx.getRemoteContactCount(), userIds: ids)
    }

    /// Adds or removes `peerId` from the stored contacts.
    static func set(_ peerId: PeerId, isContact: Bool, transaction tx: Transaction) throws {
        guard try tx.isPeerContact(peerId: peerId) != isContact else { return }
        var ids = try tx.getContactPeerIds()
        if isContact { ids.insert(peerId) } else { ids.remove(peerId) }
        try tx.replaceContactPeerIds(ids)
    }

    /// Follows the `contact` flag of the full (not `min`) users the server sent (Telegram-iOS `UpdateIsContact`,
    /// applied by `ContactSyncManager.addIsContactUpdates`): a user added or removed as a contact on another device
    /// comes back with the flag changed.
    static func follow(users: [Api.User], accountPeerId: PeerId, transaction tx: Transaction) throws {
        var changes: [PeerId: Bool] = [:]
        for case .user(let user) in users where !user.min && user.id != accountPeerId.id.rawValue {
            let peerId = PeerId.user(user.id)
            if try tx.isPeerContact(peerId: peerId) != user.contact { changes[peerId] = user.contact }
        }
        guard !changes.isEmpty else { return }
        var ids = try tx.getContactPeerIds()
        for (peerId, isContact) in changes {
            if isContact { ids.insert(peerId) } else { ids.remove(peerId) }
        }
        try tx.replaceContactPeerIds(ids)
    }
}

extension Account {
    /// Fetches the contact list unless the stored one is current (`contacts.getContacts` with `ContactList.hash`;
    /// Telegram-iOS `syncContactsOnce`): on `contacts.contacts` the users are stored and the stored ids and
    /// `saved_count` replaced; `contactsNotModified` keeps them.
    public func syncContacts() async throws(MessageActionError) -> ContactSyncOutcome {
        let hash: Int64
        do {
            hash = try postbox.readTransactionSync { tx in try ContactList.hash(transaction: tx) }
        } catch {
            throw .storage("\(error)")
        }
        let answer = try await MessageCalls.call(Api.functions.contacts.getContacts(hash: hash), network: network)
        guard case .contacts(let body) = answer else { return .notModified }
        let ids = Set(
            body.contacts.map { contact -> PeerId in
                switch contact {
                case .contact(let entry): return .user(entry.userId)
                }
            })
        do {
            try postbox.transactionSync { tx in
                _ = try UpdateBatchApplier(accountPeerId: peerId).storePeers(
                    users: body.users, chats: [], transaction: tx)
                try tx.replaceContactPeerIds(ids)
                try tx.replaceRemoteContactCount(body.savedCount)
            }
        } catch {
            throw .storage("\(error)")
        }
        return .replaced(count: ids.count)
    }

    /// Refreshes the stored presences of the contacts (`contacts.getStatuses`; Telegram-iOS
    /// `updateContactPresences`); how many the server described.
    @discardableResult
    public func updateContactPresences() async throws(MessageActionError) -> Int {
        let statuses = try await MessageCalls.call(Api.functions.contacts.getStatuses(), network: network)
        var presences: [PeerId: PeerPresence] = [:]
        for case .contactStatus(let entry) in statuses where entry.userId != peerId.id.rawValue {
            presences[.user(entry.userId)] = TelegramUserPresence(apiStatus: entry.status)
        }
        do {
            try postbox.transactionSync { tx in try tx.updatePeerPresences(presences) }
        } catch {
            throw .storage("\(error)")
        }
        return presences.count
    }

    /// The stored contacts with their peers and presences, now.
    public func contactPeers() throws -> ContactPeersView {
        try postbox.readTransactionSync { tx in
            var peers: [PeerId: Peer] = [:]
            var presences: [PeerId: PeerPresence] = [:]
            let ids = try tx.getContactPeerIds()
            for id in ids {
                peers[id] = try tx.getPeer(id)
                presences[id] = try tx.getPeerPresence(id)
            }
            return ContactPeersView(
                peerIds: ids, peers: peers, presences: presences, remoteTotalCount: try tx.getRemoteContactCount())
        }
    }

    /// Removes users from the account's contacts (`contacts.deleteContacts`): the users the answer carries are
    /// stored, and the ids leave the stored contacts once the server has it.
    public func deleteContacts(_ peerIds: [PeerId]) async throws(MessageActionError) {
        let found: [Api.InputUser?]
        do {
            found = try postbox.readTransactionSync { tx in
                try peerIds.map { peerId -> Api.InputUser? in
                    guard let user = try tx.getPeer(peerId) as? TelegramUser, let hash = user.accessHash else {
                        return nil
                    }
                    return .inputUser(.init(userId: peerId.id.rawValue, accessHash: hash.value))
                }
            }
        } catch {
            throw .storage("\(error)")
        }
        var inputs: [Api.InputUser] = []
        for (peerId, input) in zip(peerIds, found) {
            guard let input else { throw .unknownPeer(peerId) }
            inputs.append(input)
        }
        let answer = try await MessageCalls.call(Api.functions.contacts.deleteContacts(id: inputs), network: network)
        let users: [Api.User]
        switch answer {
        case .updates(let body): users = body.users
        case .updatesCombined(let body): users = body.users
        default: users = []
        }
        do {
            try postbox.transactionSync { tx in
                _ = try UpdateBatchApplier(accountPeerId: peerId).storePeers(users: users, chats: [], transaction: tx)
                for id in peerIds { try ContactList.set(id, isContact: false, transaction: tx) }
            }
        } catch {
            throw .storage("\(error)")
        }
    }

    /// Removes the contacts with these phone numbers (`contacts.deleteByPhones`), then syncs the list, since the
    /// server does not show other users' phone numbers to match them here.
    public func deleteContacts(phones: [String]) async throws(MessageActionError) {
        _ = try await MessageCalls.call(Api.functions.contacts.deleteByPhones(phones: phones), network: network)
        _ = try await syncContacts()
    }
}
