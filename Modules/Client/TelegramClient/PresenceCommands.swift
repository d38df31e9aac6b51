import Foundation
public import Postbox
public import SyncCore
public import TelegramCore

/// Presence as commands use it: the line a chat's header shows, this account online or offline, and who sees its
/// last seen time.
public enum PresenceCommands {
    /// The current unix time.
    public static var now: Int32 { Int32(Date().timeIntervalSince1970) }

    /// The stored presence of the private chat `peerId`'s user (`nil` for groups, channels, secret chats, Saved
    /// Messages, or a user the server has not described yet).
    public static func presence(_ account: Account, of peerId: PeerId) -> TelegramUserPresence? {
        guard peerId.namespace == Namespaces.Peer.cloudUser, peerId != account.peerId else { return nil }
        return try? account.presence(of: peerId)
    }

    /// The presences of the private chats among `peerIds`, read in one transaction.
    public static func presences(_ account: Account, of peerIds: [PeerId]) -> [PeerId: TelegramUserPresence] {
        let users = peerIds.filter { $0.namespace == Namespaces.Peer.cloudUser && $0 != account.peerId }
        guard !users.isEmpty else { return [:] }
        let found = try? account.postbox.readTransactionSync { tx -> [PeerId: TelegramUserPresence] in
            var result: [PeerId: TelegramUserPresence] = [:]
            for peerId in users {
                if let presence = try tx.getPeerPresence(peerId) as? TelegramUserPresence { result[peerId] = presence }
            }
            return result
        }
        return found ?? [:]
    }

    /// Tells the server this account is online (`offline: false`) or leaves (`true`).
    public static func setOnline(_ account: Account, _ online: Bool) async throws(ClientError) {
        do {
            try await account.updateStatus(offline: !online)
        } catch {
            throw MessageCommands.clientError(error)
        }
    }

    /// Says this account is offline, waiting at most `timeout` seconds (a client that is closing does not hang on an
    /// unreachable server; the server then takes it offline when its connection goes).
    public static func leave(_ account: Account, timeout: Double) async {
        _ = try? await withDeadline("going offline", timeout: timeout) { try await setOnline(account, false) }
    }

    /// Tells chat `peerId` this account is typing, or (`stopped`) no longer (`messages.setTyping`).
    public static func typing(_ account: Account, _ peerId: PeerId, stopped: Bool) async throws(ClientError) {
        guard !SecretChatting.isSecret(peerId) else {
            throw .badInput("typing in a secret chat is sent by the interactive client — use 'tg ui'")
        }
        do {
            try await account.sendTyping(in: peerId, stopped: stopped)
        } catch {
            throw MessageCommands.clientError(error)
        }
    }

    /// Who sees this account's exact last seen time; with `value`, sets it first.
    public static func lastSeen(
        _ account: Account, set value: LastSeenPrivacy?
    ) async throws(ClientError)
        -> LastSeenPrivacy
    {
        do {
            if let value { return try await account.setLastSeenPrivacy(value) }
            return try await account.lastSeenPrivacy()
        } catch {
            throw MessageCommands.clientError(error)
        }
    }

    /// Whose forwards of this account's messages link to it; with `value`, sets it first.
    public static func forwards(
        _ account: Account, set value: LastSeenPrivacy?
    ) async throws(ClientError)
        -> LastSeenPrivacy
    {
        do {
            if let value { return try await account.setForwardsPrivacy(value) }
            return try await account.forwardsPrivacy()
        } catch {
            throw MessageCommands.clientError(error)
        }
    }
}
