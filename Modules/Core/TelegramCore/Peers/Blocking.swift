public import Postbox
public import PostboxCoding
import SyncCore
import SyncCoreApi
import TelegramApi
import ValueBox

/// The users this account blocked, as far as this device knows (Telegram-iOS keeps it as `CachedUserData.isBlocked`;
/// this Postbox has no cached peer data, so it is one preferences entry): set by `Account.block` / `unblock`,
/// `updatePeerBlocked` from the account's other devices, and `Account.blockedUsers` pages.
struct BlockedPeersEntry: PreferencesEntry, Equatable {
    static let key = ValueBoxKey(Array("blocked-peers".utf8))

    var peerIds: Set<PeerId>

    init(peerIds: Set<PeerId> = []) {
        self.peerIds = peerIds
    }

    init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        peerIds = Set(decoder.decodeInt64ArrayForKey("p").map(PeerId.init))
    }

    func encode(_ encoder: PostboxEncoder) {
        encoder.encodeInt64Array(peerIds.map { $0.toInt64() }.sorted(), forKey: "p")
    }

    func isEqual(to other: PreferencesEntry) -> Bool { (other as? BlockedPeersEntry) == self }
}

/// Reading and writing which peers this account blocked, inside a transaction.
public enum BlockedPeers {
    /// Whether `peerId` is blocked, as stored.
    public static func isBlocked(_ peerId: PeerId, transaction tx: Transaction) throws -> Bool {
        (try tx.getPreferencesEntry(key: BlockedPeersEntry.key) as? BlockedPeersEntry)?.peerIds.contains(peerId)
            ?? false
    }

    /// Records `peerId` blocked or not.
    public static func set(_ peerId: PeerId, blocked: Bool, transaction tx: Transaction) throws {
        var entry = try tx.getPreferencesEntry(key: BlockedPeersEntry.key) as? BlockedPeersEntry ?? BlockedPeersEntry()
        let before = entry
        if blocked { entry.peerIds.insert(peerId) } else { entry.peerIds.remove(peerId) }
        if entry != before { try tx.setPreferencesEntry(key: BlockedPeersEntry.key, value: entry) }
    }
}

/// A peer blocked or unblocked on another device of the account (`updatePeerBlocked`).
public struct BlockedChange: Equatable, Sendable {
    public var peerId: PeerId
    public var blocked: Bool

    public init(peerId: PeerId, blocked: Bool) {
        self.peerId = peerId
        self.blocked = blocked
    }
}

/// One page of `contacts.getBlocked`.
public struct BlockedUsersPage: Equatable, Sendable {
    /// Newest first: who, and when they were blocked.
    public var users: [(peerId: PeerId, date: Int32)]
    /// How many users the account blocked in all.
    public var total: Int

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.total == rhs.total && lhs.users.map(\.peerId) == rhs.users.map(\.peerId)
            && lhs.users.map(\.date) == rhs.users.map(\.date)
    }
}

extension Account {
    /// Blocks user `peerId` (`contacts.block`; Telegram-iOS `requestUpdatePeerIsBlocked`): they can no longer write
    /// to this account (the server answers them `USER_IS_BLOCKED`), nor see its status or photo. Recorded here once
    /// the server has it; the account's other devices get `updatePeerBlocked`.
    public func block(_ peerId: PeerId) async throws(MessageActionError) {
        try await setBlocked(peerId, true)
    }

    /// Unblocks user `peerId` (`contacts.unblock`).
    public func unblock(_ peerId: PeerId) async throws(MessageActionError) {
        try await setBlocked(peerId, false)
    }

    private func setBlocked(_ peerId: PeerId, _ blocked: Bool) async throws(MessageActionError) {
        let peer = try MessageCalls.inputPeer(peerId, accountPeerId: self.peerId, postbox: postbox)
        if blocked {
            _ = try await MessageCalls.call(Api.functions.contacts.block(id: peer), network: network)
        } else {
            _ = try await MessageCalls.call(Api.functions.contacts.unblock(id: peer), network: network)
        }
        do {
            try postbox.transactionSync { tx in try BlockedPeers.set(peerId, blocked: blocked, transaction: tx) }
        } catch {
            throw .storage("\(error)")
        }
    }

    /// Whether this account blocked `peerId`, as stored here.
    public func isBlocked(_ peerId: PeerId) throws -> Bool {
        try postbox.readTransactionSync { tx in try BlockedPeers.isBlocked(peerId, transaction: tx) }
    }

    /// A page of the users this account blocked, newest first (`contacts.getBlocked`); the users are stored and
    /// recorded as blocked.
    public func blockedUsers(offset: Int = 0, limit: Int = 100) async throws(MessageActionError) -> BlockedUsersPage {
        let answer = try await MessageCalls.call(
            Api.functions.contacts.getBlocked(offset: Int32(clamping: offset), limit: Int32(clamping: limit)),
            network: network)
        let (blocked, users, total): ([Api.PeerBlocked], [Api.User], Int)
        switch answer {
        case .blocked(let body): (blocked, users, total) = (body.blocked, body.users, body.blocked.count)
        case .blockedSlice(let body): (blocked, users, total) = (body.blocked, body.users, Int(body.count))
        }
        let page = blocked.map { entry -> (peerId: PeerId, date: Int32) in
            switch entry {
            case .peerBlocked(let body): return (PeerId(body.peerId), body.date)
            }
        }
        do {
            try postbox.transactionSync { tx in
                _ = try UpdateBatchApplier(accountPeerId: peerId).storePeers(users: users, chats: [], transaction: tx)
                for entry in page { try BlockedPeers.set(entry.peerId, blocked: true, transaction: tx) }
            }
        } catch {
            throw .storage("\(error)")
        }
        return BlockedUsersPage(users: page, total: total)
    }
}
