import AccountNetworking
import Foundation
import Network
public import Postbox
public import SyncCore
import SyncCoreApi
import TelegramApi
public import TelegramCore

/// Finds the chat a `PeerReference` names: in the account's Postbox first, then from the server (`@username` through
/// `contacts.resolveUsername`, a phone number through `contacts.importContacts`), storing what the server returns so
/// the chat can be written to.
public enum PeerResolver {
    /// The peer `reference` names for `account`; `.notFound` when nobody matches, `.badInput` when a title matches
    /// several chats.
    public static func resolve(_ reference: PeerReference, account: Account) async throws(ClientError) -> PeerId {
        switch reference {
        case .me:
            return account.peerId
        case .user(let id):
            return try stored(.user(id), account: account, reference)
        case .group(let id):
            return try stored(.group(id), account: account, reference)
        case .channel(let id):
            return try stored(.channel(id), account: account, reference)
        case .secretChat(let id):
            return try SecretChatting.peerId(chatId: id, account: account)
        case .username(let name):
            if let found = try firstStored(
                account,
                { peer in
                    let stored = (peer as? TelegramUser)?.username ?? (peer as? TelegramChannel)?.username
                    return stored?.lowercased() == name.lowercased()
                })
            {
                return found
            }
            return try await resolveUsername(name, account: account)
        case .phone(let phone):
            if let found = try firstStored(account, { ($0 as? TelegramUser)?.phone == phone }) { return found }
            let imported: PeerId?
            do {
                imported = try await account.importContact(phone: phone, firstName: "+" + phone)
            } catch .network {
                throw .unreachable("the server did not answer contacts.importContacts — check that it is running")
            } catch {
                throw .refused("importing +\(phone): \(error)")
            }
            guard let imported else { throw .notFound("nobody has the number +\(phone) — check the number") }
            return imported
        case .title(let title):
            let matches = try allStored(account).filter { displayName($0).lowercased() == title.lowercased() }
            if matches.count > 1 {
                throw .badInput(
                    "\(matches.count) chats are called '\(title)' — name one as user:ID, chat:ID or channel:ID (see 'tg chats')"
                )
            }
            guard let match = matches.first else {
                throw .notFound("no chat called '\(title)' — see 'tg chats', or use @username or +phone")
            }
            return match.id
        }
    }

    /// The name of the chat with oneself.
    public static let savedMessages = "Saved Messages"

    /// The name a peer is shown by: a user's full name (or `@username`, or `+phone`), a group's or channel's title.
    public static func displayName(_ peer: Peer?) -> String {
        if let user = peer as? TelegramUser {
            let name = [user.firstName, user.lastName].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
            if !name.isEmpty { return name }
            if let username = user.username { return "@" + username }
            if let phone = user.phone { return "+" + phone }
            return "user:\(user.id.id.rawValue)"
        }
        if let group = peer as? TelegramGroup { return group.title }
        if let channel = peer as? TelegramChannel { return channel.title }
        return peer.map { "peer:\($0.id.id.rawValue)" } ?? "unknown"
    }

    /// The name of chat `peerId` for `account`: "Saved Messages" for itself, a secret chat's other user's name after
    /// `🔒 `, else its stored peer's name.
    public static func chatName(_ peerId: PeerId, account: Account) -> String {
        if peerId == account.peerId { return savedMessages }
        if let userId = SecretChatting.otherUser(peerId, account: account) {
            return SecretChatting.mark + chatName(userId, account: account)
        }
        return displayName(try? account.postbox.readTransactionSync { try $0.getPeer(peerId) })
    }

    /// `user:ID`, `chat:ID`, `channel:ID`, `secret:ID`: how commands name a peer without ambiguity.
    public static func handle(_ peerId: PeerId) -> String {
        switch peerId.namespace {
        case Namespaces.Peer.secretChat: return "secret:\(peerId.id.rawValue)"
        case Namespaces.Peer.cloudGroup: return "chat:\(peerId.id.rawValue)"
        case Namespaces.Peer.cloudChannel: return "channel:\(peerId.id.rawValue)"
        default: return "user:\(peerId.id.rawValue)"
        }
    }

    private static func stored(_ id: PeerId, account: Account, _ reference: PeerReference) throws(ClientError) -> PeerId
    {
        guard try read(account, { try $0.getPeer(id) }) != nil else {
            throw .notFound("no stored chat \(reference) — see 'tg chats', or use @username or +phone")
        }
        return id
    }

    private static func firstStored(
        _ account: Account, _ match: @escaping (Peer) -> Bool
    ) throws(ClientError) -> PeerId? {
        try allStored(account).first(where: match)?.id
    }

    private static func allStored(_ account: Account) throws(ClientError) -> [Peer] {
        try read(account) { try $0.getAllPeers() }
    }

    private static func read<T>(_ account: Account, _ body: (Transaction) throws -> T) throws(ClientError) -> T {
        do { return try account.postbox.readTransactionSync(body) } catch {
            throw .storage("reading the account: \(error)")
        }
    }

    private static func resolveUsername(_ name: String, account: Account) async throws(ClientError) -> PeerId {
        do {
            return try await account.resolvePeer(username: name)
        } catch .notFound {
            throw .notFound("nobody has the username @\(name) — check the spelling")
        } catch .network {
            throw .unreachable("the server did not answer contacts.resolveUsername — check that it is running")
        } catch .storage(let text) {
            throw .storage(text)
        } catch {
            throw .refused("resolving @\(name): \(error)")
        }
    }
}
