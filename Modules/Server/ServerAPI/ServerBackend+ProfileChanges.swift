import ServerStore
import TelegramApi

/// A change of someone's profile, told to those who show it without their asking (core.telegram.org constructors
/// `updateUserName`, `updateUser`, `updatePeerSettings`): the account's other sessions, and the accounts that follow
/// the user's status (`StoreTransaction.statusWatchers`: the user in their contacts, or a private chat with them —
/// at most `statusWatchersLimit`). Each push is an `updates` with `seq` 0 (outside every sequence: applied as it
/// comes) carrying the user as that account sees it, so a client stores the new name or photo from `users` as
/// Telegram-iOS does (`AccountStateManagementUtils`: `updateUserName`, `updateUser` refresh the stored peer).
extension ServerBackend {
    /// `updateUserName`: the user's name and username now.
    static func nameUpdate(_ user: UserRecord) -> Api.Update {
        .updateUserName(
            .init(
                userId: user.id, firstName: user.firstName, lastName: user.lastName,
                usernames: user.username.map { [.username(.init(editable: true, active: true, username: $0))] } ?? []))
    }

    /// The pushes of `update` about `user` to the user's own sessions (the calling one excepted by `send`) and to
    /// every watcher, each with the user as its receiver sees it.
    func profilePushes(of user: UserRecord, _ update: Api.Update, date: Int32, tx: StoreTransaction) throws -> [Push] {
        var pushes: [Push] = []
        for viewer in try [user.id] + tx.statusWatchers(of: user.id, limit: Self.statusWatchersLimit) {
            let keys = try authKeys(of: viewer, tx: tx)
            guard !keys.isEmpty else { continue }
            let shown = try apiUser(user, viewer: viewer, tx: tx)
            pushes.append(
                Push(
                    authKeyIds: keys,
                    updates: .updates(.init(updates: [update], users: [shown], chats: [], date: date, seq: 0))))
        }
        return pushes
    }

    /// A change of `owner`'s contact list, told to `owner`'s other sessions: `updatePeerSettings` of each user
    /// added or removed, with the user as `owner` now sees them (its `contact` flag moves the user in or out of the
    /// list, Telegram-iOS `UpdateIsContact`). `added`: whether the "add contact" offer is gone (`peerSettings`
    /// empty) or back (`add_contact`).
    func contactPush(owner: Int64, users: [UserRecord], added: Bool, date: Int32, tx: StoreTransaction) throws -> Push?
    {
        guard !users.isEmpty else { return nil }
        let keys = try authKeys(of: owner, tx: tx)
        guard !keys.isEmpty else { return nil }
        return Push(
            authKeyIds: keys,
            updates: .updates(
                .init(
                    updates: Self.contactUpdates(users.map(\.id), added: added),
                    users: try users.map { try apiUser($0, viewer: owner, tx: tx) }, chats: [], date: date, seq: 0)))
    }

    /// `updatePeerSettings` for each of `userIds` just added to (or removed from) a contact list: what the change's
    /// own answer carries too (Pyrogram's `delete_contacts` reads an answer without updates as "nothing changed").
    static func contactUpdates(_ userIds: [Int64], added: Bool) -> [Api.Update] {
        let settings: Api.PeerSettings = .peerSettings(.init(addContact: !added, blockContact: !added))
        return userIds.map { .updatePeerSettings(.init(peer: .peerUser(.init(userId: $0)), settings: settings)) }
    }
}
