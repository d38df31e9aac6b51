import Foundation
public import Postbox
public import SyncCore
public import TelegramCore

/// Contacts and common chats as commands use them (core.telegram.org `contacts.getContacts`,
/// `contacts.importContacts`, `contacts.deleteContacts`, `contacts.deleteByPhones`, `messages.getCommonChats`,
/// `users.getFullUser`).
public enum ContactCommands {
    /// One contact as `tg contacts` prints it.
    public struct Row: Encodable, Equatable, Sendable {
        /// The handle (`user:ID`).
        public var user: String
        public var name: String
        public var username: String?
        /// What the stored presence says (`online`, `last seen 2026-11-29 08:00`, `recently`, …), when one is stored.
        public var status: String?
    }

    /// The account's contacts by name, after syncing them with the server (`contacts.getContacts` with the stored
    /// list's hash; an unchanged list is not sent again) and refreshing their presences (`contacts.getStatuses`).
    public static func list(_ account: Account, now: Int32 = PresenceCommands.now) async throws(ClientError) -> [Row] {
        do {
            _ = try await account.syncContacts()
            try await account.updateContactPresences()
        } catch {
            throw MessageCommands.clientError(error)
        }
        let view: ContactPeersView
        do {
            view = try account.contactPeers()
        } catch {
            throw .storage("\(error)")
        }
        return view.peerIds.map { peerId in
            Row(
                user: PeerResolver.handle(peerId), name: PeerResolver.displayName(view.peers[peerId]),
                username: (view.peers[peerId] as? TelegramUser)?.username,
                status: (view.presences[peerId] as? TelegramUserPresence).map { statusText($0.status, now: now) })
        }.sorted { ($0.name.lowercased(), $0.user) < ($1.name.lowercased(), $1.user) }
    }

    /// A presence in words.
    public static func statusText(_ status: UserPresenceStatus, now: Int32) -> String {
        switch status {
        case .none: return "last seen a long time ago"
        case .present(let until) where until > now: return "online"
        case .present(let since), .offline(let since): return "last seen " + timestamp(since)
        case .recently: return "last seen recently"
        case .lastWeek: return "last seen within a week"
        case .lastMonth: return "last seen within a month"
        }
    }

    private static func timestamp(_ time: Int32) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
    }

    /// What `tg contacts import` reports.
    public struct ImportResult: Encodable, Equatable, Sendable {
        public struct Entry: Encodable, Equatable, Sendable {
            public var phone: String
            public var name: String
            /// The user with that number (`user:ID`), for imported contacts.
            public var user: String?
        }
        public var imported: [Entry]
        public var notOnTelegram: [Entry]
        /// How many contacts were sent again because the server answered them in `retry_contacts`.
        public var retried: Int
        /// Contacts still to import (the server kept asking to retry, or a flood wait stopped the import).
        public var retryLater: [Entry]
        /// Seconds of the `FLOOD_WAIT` that stopped the import, if one did.
        public var floodWait: Int?
    }

    /// Imports phone contacts (read with `ContactFile.read` before the account is opened, so a bad file stores
    /// nothing) in batches, retrying what the server answers in `retry_contacts`.
    public static func importContacts(
        _ account: Account, _ contacts: [PhoneContact], options: ContactImportOptions = ContactImportOptions()
    ) async throws(ClientError) -> ImportResult {
        let report: ContactImportReport
        do {
            report = try await account.importContacts(contacts, options: options)
        } catch {
            throw MessageCommands.clientError(error)
        }
        func entry(_ contact: PhoneContact, _ user: PeerId? = nil) -> ImportResult.Entry {
            let name = [contact.firstName, contact.lastName].filter { !$0.isEmpty }.joined(separator: " ")
            return .init(phone: contact.phone, name: name, user: user.map(PeerResolver.handle))
        }
        return ImportResult(
            imported: report.imported.map { entry($0.contact, $0.peerId) },
            notOnTelegram: report.notOnTelegram.map { entry($0) }, retried: report.retried,
            retryLater: report.retryLater.map { entry($0) }, floodWait: report.floodWait)
    }

    /// Removes a contact named by `+phone` (`contacts.deleteByPhones`) or as any chat is named (`@username`,
    /// `user:ID`, a name: `contacts.deleteContacts`); a user who is not a contact is `.notFound`.
    public static func delete(_ account: Account, _ target: String) async throws(ClientError) -> String {
        guard let reference = PeerReference(target) else {
            throw .badInput("name the contact: @username, +phone or user:ID")
        }
        if case .phone(let phone) = reference {
            // The server does not show other users' numbers, so whether it was a contact is seen in the list.
            let before: Set<PeerId>
            let after: Set<PeerId>
            do {
                _ = try await account.syncContacts()
                before = try account.contactPeers().peerIds
                try await account.deleteContacts(phones: ["+" + phone])
                after = try account.contactPeers().peerIds
            } catch let error as MessageActionError {
                throw MessageCommands.clientError(error)
            } catch {
                throw .storage("\(error)")
            }
            guard let removed = before.subtracting(after).first else {
                throw .notFound("+\(phone) is not in your contacts")
            }
            return PeerResolver.chatName(removed, account: account)
        }
        let peerId = try await PeerResolver.resolve(reference, account: account)
        guard peerId.namespace == Namespaces.Peer.cloudUser, peerId != account.peerId else {
            throw .badInput("\(target) is not a user — only users are contacts")
        }
        do {
            _ = try await account.syncContacts()
            guard try account.contactPeers().peerIds.contains(peerId) else {
                throw ClientError.notFound("\(PeerResolver.chatName(peerId, account: account)) is not in your contacts")
            }
            try await account.deleteContacts([peerId])
        } catch let error as ClientError {
            throw error
        } catch let error as MessageActionError {
            throw MessageCommands.clientError(error)
        } catch {
            throw .storage("\(error)")
        }
        return PeerResolver.chatName(peerId, account: account)
    }

    /// What `tg info` shows of a user.
    public struct Info: Encodable, Equatable, Sendable {
        public var user: String
        public var name: String
        public var username: String?
        public var contact: Bool
        /// `users.getFullUser`'s `common_chats_count`.
        public var commonChatsCount: Int
        /// The titles of the groups and channels shared with them (`messages.getCommonChats`).
        public var commonChats: [String]
    }

    /// A user's name, whether they are a contact, and the chats this account shares with them.
    public static func info(_ account: Account, _ peerId: PeerId) async throws(ClientError) -> Info {
        guard peerId.namespace == Namespaces.Peer.cloudUser else {
            throw .badInput("\(PeerResolver.handle(peerId)) is not a user — 'tg info' describes users")
        }
        do {
            let count = peerId == account.peerId ? 0 : try await account.commonChatsCount(with: peerId)
            let chats = peerId == account.peerId ? [] : try await account.commonChats(with: peerId)
            let user = try? account.postbox.readTransactionSync { tx in try tx.getPeer(peerId) as? TelegramUser }
            let contact =
                (try? account.postbox.readTransactionSync { tx in try tx.isPeerContact(peerId: peerId) }) ?? false
            return Info(
                user: PeerResolver.handle(peerId), name: PeerResolver.chatName(peerId, account: account),
                username: user?.username, contact: contact, commonChatsCount: count,
                commonChats: chats.map { PeerResolver.chatName($0, account: account) })
        } catch {
            throw MessageCommands.clientError(error)
        }
    }
}
