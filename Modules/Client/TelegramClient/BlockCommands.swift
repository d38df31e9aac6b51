public import Postbox
import SyncCore
public import TelegramCore

/// Blocking as commands use it (core.telegram.org `contacts.block`, `contacts.unblock`, `contacts.getBlocked`).
public enum BlockCommands {
    /// Blocks or unblocks the user `peerId`; groups, channels and secret chats are not users (`.badInput`).
    public static func setBlocked(_ account: Account, _ peerId: PeerId, _ blocked: Bool) async throws(ClientError) {
        guard peerId.namespace == Namespaces.Peer.cloudUser else {
            throw .badInput("only users can be blocked, not \(PeerResolver.handle(peerId))")
        }
        guard peerId != account.peerId else { throw .badInput("you cannot block yourself") }
        do {
            if blocked { try await account.block(peerId) } else { try await account.unblock(peerId) }
        } catch {
            throw MessageCommands.clientError(error)
        }
    }

    /// One blocked user as `tg blocked` prints it.
    public struct Row: Encodable, Equatable, Sendable {
        /// The handle (`user:ID`, or `@username`).
        public var user: String
        public var name: String
        /// When they were blocked (unix time).
        public var date: Int32
    }

    /// Every user this account blocked, newest first (pages of 100, at most `limit`).
    public static func list(_ account: Account, limit: Int = 1000) async throws(ClientError) -> [Row] {
        var rows: [Row] = []
        do {
            while rows.count < limit {
                let page = try await account.blockedUsers(offset: rows.count, limit: min(100, limit - rows.count))
                rows += page.users.map { entry in
                    Row(
                        user: PeerResolver.handle(entry.peerId),
                        name: PeerResolver.chatName(entry.peerId, account: account), date: entry.date)
                }
                if page.users.isEmpty || rows.count >= page.total { break }
            }
        } catch {
            throw MessageCommands.clientError(error)
        }
        return rows
    }
}
