public import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// What `createChannel` makes (core.telegram.org "Channels, supergroups, gigagroups and basic groups").
public enum CreatedChannelKind: Sendable, Equatable {
    /// A broadcast channel: only admins post, members read.
    case broadcast
    /// A supergroup (`megagroup`): every member writes.
    case supergroup
}

extension Account {
    /// Creates a broadcast channel or a supergroup with this account as its creator (`channels.createChannel`;
    /// Telegram-iOS `TelegramCore/Sources/TelegramEngine/Peers/CreateChannel.swift`), stores the channel the server
    /// returns and applies its first message (`messageActionChannelCreate`) through the channel's pts. Returns the
    /// channel's peer id.
    public func createChannel(
        title: String, about: String = "", kind: CreatedChannelKind
    ) async throws(PeerActionError) -> PeerId {
        let updates = try await peerActionRequest(
            Api.functions.channels.createChannel(
                broadcast: kind == .broadcast, megagroup: kind == .supergroup, title: title, about: about))
        guard let channel = Self.chatIds(in: updates).first(where: { $0.namespace == Namespaces.Peer.cloudChannel })
        else {
            throw .storage("channels.createChannel returned no channel")
        }
        try applyActionUpdates(updates)
        return channel
    }

    /// Gives the channel `peerId` a public username (`channels.updateUsername`; "" makes it private again), after the
    /// same format check as the account's own (`checkAddressNameFormat`), and stores it in the channel's peer.
    public func setChannelUsername(_ name: String, of peerId: PeerId) async throws(PeerActionError) {
        // A malformed name is refused here with the server's own error for it, never sent.
        if checkAddressNameFormat(name, canEmpty: true) != nil { throw .server("USERNAME_INVALID") }
        let (_, input) = try storedChannel(peerId)
        let done = try await peerActionRequest(Api.functions.channels.updateUsername(channel: input, username: name))
        guard done else { throw .server("USERNAME_NOT_MODIFIED") }
        // The channel's creation `Updates` carry it without the username; applied after this write, they would take
        // it away again (it failed so under load).
        await stateManager.handledSoFar()
        do {
            try postbox.transactionSync { tx in
                guard var channel = try tx.getPeer(peerId) as? TelegramChannel else { return }
                channel.username = name.isEmpty ? nil : name
                try tx.updatePeers([channel])
            }
        } catch {
            throw .storage("storing the channel's username: \(error)")
        }
    }
}
