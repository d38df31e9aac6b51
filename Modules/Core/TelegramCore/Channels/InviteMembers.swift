public import Postbox
import SyncCore
import TelegramApi

extension Account {
    /// Adds `users` to the channel, supergroup or basic group `peerId` (Telegram-iOS
    /// `TelegramCore/Sources/TelegramEngine/Peers/AddPeerMember.swift`): a channel takes them all in one
    /// `channels.inviteToChannel`; a basic group one `messages.addChatUser` each (a user already in is skipped only
    /// when others were added). The service messages are applied like any call's updates.
    public func invite(_ users: [PeerId], to peerId: PeerId) async throws(PeerActionError) {
        var inputs: [Api.InputUser] = []
        for user in users { inputs.append(try inputUser(user)) }
        switch peerId.namespace {
        case Namespaces.Peer.cloudChannel:
            let (_, input) = try storedChannel(peerId)
            let invited = try await peerActionRequest(
                Api.functions.channels.inviteToChannel(channel: input, users: inputs))
            guard case .invitedUsers(let value) = invited else { throw .storage("unexpected \(invited)") }
            try applyActionUpdates(value.updates)
        case Namespaces.Peer.cloudGroup:
            var added = 0
            var lastError: PeerActionError?
            for user in inputs {
                do throws(PeerActionError) {
                    let invited = try await peerActionRequest(
                        Api.functions.messages.addChatUser(chatId: peerId.id.rawValue, userId: user, fwdLimit: 100))
                    guard case .invitedUsers(let value) = invited else { throw .storage("unexpected \(invited)") }
                    try applyActionUpdates(value.updates)
                    added += 1
                } catch .server("USER_ALREADY_PARTICIPANT") {
                    lastError = .server("USER_ALREADY_PARTICIPANT")
                }
            }
            if added == 0, let lastError { throw lastError }
        default:
            throw .unsupported("\(peerId) is not a group or channel")
        }
    }
}
