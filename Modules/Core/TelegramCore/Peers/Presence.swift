public import Postbox
public import SyncCore
import SyncCoreApi
import TelegramApi

/// Who sees this account's exact last seen time (core.telegram.org "Privacy", key `inputPrivacyKeyStatusTimestamp`),
/// as Telegram's apps offer it: everybody, my contacts, or nobody (Telegram-iOS `SelectivePrivacySettings` without
/// the exception lists).
public enum LastSeenPrivacy: String, Sendable, CaseIterable {
    case everybody, contacts, nobody

    /// The rules `account.setPrivacy` takes for it.
    var inputRules: [Api.InputPrivacyRule] {
        switch self {
        case .everybody: return [.inputPrivacyValueAllowAll]
        case .contacts: return [.inputPrivacyValueAllowContacts, .inputPrivacyValueDisallowAll]
        case .nobody: return [.inputPrivacyValueDisallowAll]
        }
    }

    /// The base rule of the server's rules (Telegram-iOS reads them the same way: everybody when `allowAll` is there,
    /// else contacts when `allowContacts` is, else nobody).
    init(rules: [Api.PrivacyRule]) {
        if rules.contains(where: { if case .privacyValueAllowAll = $0 { return true } else { return false } }) {
            self = .everybody
        } else if rules.contains(where: {
            if case .privacyValueAllowContacts = $0 { return true } else { return false }
        }) {
            self = .contacts
        } else {
            self = .nobody
        }
    }
}

extension Account {
    /// Tells the server this account is online now, or offline (`account.updateStatus`; Telegram-iOS
    /// `AccountPresenceManager`): online lasts about five minutes, so an open client repeats it, and says offline
    /// when it closes. The server pushes the change as `updateUserStatus` to those who may see it.
    public func updateStatus(offline: Bool) async throws(MessageActionError) {
        _ = try await MessageCalls.call(Api.functions.account.updateStatus(offline: offline), network: network)
    }

    /// The stored presence of user `peerId` (from the users the server sent and `updateUserStatus`).
    public func presence(of peerId: PeerId) throws -> TelegramUserPresence? {
        try postbox.readTransactionSync { tx in try tx.getPeerPresence(peerId) as? TelegramUserPresence }
    }

    /// Asks the server for the status of every contact (`contacts.getStatuses`) and stores them.
    @discardableResult
    public func refreshContactPresences() async throws(MessageActionError) -> Int {
        let statuses = try await MessageCalls.call(Api.functions.contacts.getStatuses(), network: network)
        var presences: [PeerId: PeerPresence] = [:]
        for case .contactStatus(let status) in statuses {
            presences[.user(status.userId)] = TelegramUserPresence(apiStatus: status.status)
        }
        do {
            try postbox.transactionSync { tx in try tx.updatePeerPresences(presences) }
        } catch {
            throw .storage("\(error)")
        }
        return presences.count
    }

    /// Who sees this account's exact last seen time (`account.getPrivacy`).
    public func lastSeenPrivacy() async throws(MessageActionError) -> LastSeenPrivacy {
        try await privacy(of: .inputPrivacyKeyStatusTimestamp)
    }

    /// Sets who sees this account's exact last seen time (`account.setPrivacy`); returns what the server now holds.
    /// Those who may not see it see "last seen recently" (or within a week, a month), and — Telegram's rule — this
    /// account no longer sees theirs.
    @discardableResult
    public func setLastSeenPrivacy(_ privacy: LastSeenPrivacy) async throws(MessageActionError) -> LastSeenPrivacy {
        try await setPrivacy(privacy, of: .inputPrivacyKeyStatusTimestamp)
    }
}
