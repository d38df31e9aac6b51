import Foundation
import MTProtoServer
import ServerStore
import TelegramApi

/// Presence (core.telegram.org constructors `userStatusOnline`, `userStatusOffline`, `userStatusRecently`, …; methods
/// `account.updateStatus`, `contacts.getStatuses`; update `updateUserStatus`): online while a client says so or acts,
/// offline when it says so or its last session goes away, the exact time shown only to those the account's
/// `statusTimestamp` privacy rules let see it (`ServerBackend+Privacy`).
extension ServerBackend {
    /// The most accounts one status change is pushed to, and the most contacts `contacts.getStatuses` answers.
    static let statusWatchersLimit = 10_000

    /// Whether `viewer` may see `userId`'s exact status.
    enum LastSeenVisibility: Equatable {
        case exact
        /// Not exact: `byMe` when it is the viewer's own rules that hide it (Telegram: who hides their last seen from
        /// someone does not see that someone's either — telegram.org/faq "Who can see my Last Seen time?").
        case hidden(byMe: Bool)
    }

    func lastSeenVisibility(of userId: Int64, viewer: Int64, tx: StoreTransaction) throws -> LastSeenVisibility {
        if userId == viewer { return .exact }
        let theirs = try privacyRules(owner: userId, key: .statusTimestamp, tx: tx)
        guard try theirs.allows(viewer, isContact: { try tx.isContact(owner: userId, userId: viewer) }) else {
            return .hidden(byMe: false)
        }
        let mine = try privacyRules(owner: viewer, key: .statusTimestamp, tx: tx)
        guard try mine.allows(userId, isContact: { try tx.isContact(owner: viewer, userId: userId) }) else {
            return .hidden(byMe: true)
        }
        return .exact
    }

    /// `userId`'s exact status: online until its time runs out, else offline since the last time it was online;
    /// `nil` when it was never online here.
    func exactStatus(of userId: Int64, tx: StoreTransaction) throws -> Api.UserStatus? {
        if let until = presences.onlineUntil(userId, now: clock()) {
            return .userStatusOnline(.init(expires: Int32(clamping: Int64(until.rounded(.up)))))
        }
        return try tx.wasOnline(userId: userId).map { .userStatusOffline(.init(wasOnline: $0)) }
    }

    /// `userId`'s status as `viewer` sees it. An account never online here is "recently", as every account was
    /// before presence existed.
    func userStatus(of userId: Int64, viewer: Int64, tx: StoreTransaction) throws -> Api.UserStatus {
        guard let exact = try exactStatus(of: userId, tx: tx) else { return .userStatusRecently(.init()) }
        switch try lastSeenVisibility(of: userId, viewer: viewer, tx: tx) {
        case .exact: return exact
        case .hidden(let byMe): return Self.approximate(exact, now: now, byMe: byMe)
        }
    }

    /// What someone who may not see the exact time gets, by how long ago it was (telegram.org/faq "Who can see my
    /// Last Seen time?": recently is up to 2–3 days, then within a week, within a month, then a long time ago —
    /// `userStatusEmpty`). Online now is "recently".
    static func approximate(_ status: Api.UserStatus, now: Int32, byMe: Bool) -> Api.UserStatus {
        guard case .userStatusOffline(let offline) = status else { return .userStatusRecently(.init(byMe: byMe)) }
        let age = Int64(now) - Int64(offline.wasOnline)
        let day: Int64 = 86_400
        if age <= 3 * day { return .userStatusRecently(.init(byMe: byMe)) }
        if age <= 7 * day { return .userStatusLastWeek(.init(byMe: byMe)) }
        if age <= 30 * day { return .userStatusLastMonth(.init(byMe: byMe)) }
        return .userStatusEmpty
    }

    /// `account.updateStatus`: online for `Presences.onlinePeriod` (a client repeats it while open), or offline now.
    /// A change is pushed as `updateUserStatus` to the watchers who may see it.
    func updateStatus(_ call: Api.functions.account.updateStatus, caller: Caller) throws -> [UInt8] {
        let changed =
            call.offline
            ? presences.markOffline(caller.userId, now: clock()) : presences.markOnline(caller.userId, now: clock())
        try recordStatus(of: caller.userId, pushing: changed, caller: caller)
        return Reply.bool(true)
    }

    /// A session's own activity (sending, typing, reading) keeps its account online, as Telegram's does.
    func noteActivity(authKeyId: Int64) throws {
        guard let account = try account(authKeyId: authKeyId) else { return }
        guard presences.markOnline(account.userId, now: clock()) else { return }
        try recordStatus(of: account.userId, pushing: true, caller: nil)
    }

    /// An auth key's last session went away: its account goes offline once none of its keys has a session left.
    func keyLostItsSessions(_ authKeyId: Int64) throws {
        guard let account = try account(authKeyId: authKeyId),
            presences.onlineUntil(account.userId, now: clock()) != nil
        else { return }
        let keys = try store.read { tx in try authKeys(of: account.userId, tx: tx) }
        guard keys.allSatisfy({ updates.subscribedSessions(authKeyId: $0) == 0 }) else { return }
        guard presences.markOffline(account.userId, now: clock()) else { return }
        try recordStatus(of: account.userId, pushing: true, caller: nil)
    }

    /// Stores that `userId` is online or was just now, and pushes the new status when `pushing`.
    private func recordStatus(of userId: Int64, pushing: Bool, caller: Caller?) throws {
        let date = now
        try store.write(
            { [self] tx throws -> [Push] in
                try tx.setWasOnline(userId: userId, date: date)
                return pushing ? try statusPushes(of: userId, date: date, tx: tx) : []
            }, then: { [self] pushes in send(pushes, caller: caller) })
    }

    /// `updateUserStatus` for each watcher of `userId` (`StoreTransaction.statusWatchers`: those with `userId` in
    /// their contacts or a private chat with them — whom Telegram tells) who may see the exact status; the others'
    /// approximation does not change when someone comes and goes, so they are not told.
    func statusPushes(of userId: Int64, date: Int32, tx: StoreTransaction) throws -> [Push] {
        guard let status = try exactStatus(of: userId, tx: tx) else { return [] }
        var pushes: [Push] = []
        for watcher in try tx.statusWatchers(of: userId, limit: Self.statusWatchersLimit)
        where try lastSeenVisibility(of: userId, viewer: watcher, tx: tx) == .exact
            && !tx.isBlocked(owner: userId, userId: watcher)
        {
            pushes.append(
                Push(
                    authKeyIds: try authKeys(of: watcher, tx: tx),
                    updates: .updateShort(
                        .init(update: .updateUserStatus(.init(userId: userId, status: status)), date: date))))
        }
        return pushes
    }

    /// `contacts.getStatuses`: the status of each of the caller's contacts, as the caller may see it.
    func getStatuses(_ caller: Caller) throws -> [UInt8] {
        let statuses = try store.read { tx in
            try tx.contacts(owner: caller.userId).prefix(Self.statusWatchersLimit).map {
                let hidden = try tx.isBlocked(owner: $0, userId: caller.userId)
                return Api.ContactStatus.contactStatus(
                    .init(
                        userId: $0,
                        status: hidden ? .userStatusEmpty : try userStatus(of: $0, viewer: caller.userId, tx: tx)))
            }
        }
        return Reply.vector(statuses)
    }

    /// The methods that count as a session's activity (`noteActivity`).
    static func isActivity(_ functionName: String) -> Bool { activityMethods.contains(functionName) }

    static let activityMethods: Set<String> = [
        "messages.sendMessage", "messages.sendMedia", "messages.sendMultiMedia", "messages.setTyping",
        "messages.readHistory",
    ]
}
