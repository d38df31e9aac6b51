public import Postbox
import SyncCore
import TelegramApi

extension Account {
    /// Fetches and stores the account's dialog of `peerId` (`messages.getPeerDialogs`): its top message with a hole
    /// below it, its read state and, for a channel nothing was stored of, its pts — what a chat the account has just
    /// joined needs so that it is not shown all unread and its history and updates start in the right place
    /// (Telegram-iOS resets a channel it joins through `getPeerDialogs`, `resetChannels` in
    /// `AccountStateManagementUtils.swift`).
    public func refreshDialog(_ peerId: PeerId) async throws(PeerActionError) {
        let input: Api.InputPeer?
        do {
            let accountPeerId = self.peerId
            input = try postbox.readTransactionSync { tx in
                try apiInputPeer(peerId, accountPeerId: accountPeerId, transaction: tx)
            }
        } catch {
            throw .storage("reading the account: \(error)")
        }
        guard let input else { throw .unknownPeer("the chat \(peerId) is not stored in this account") }
        let answer = try await peerActionRequest(
            Api.functions.messages.getPeerDialogs(peers: [.inputDialogPeer(.init(peer: input))]))
        guard case .peerDialogs(let value) = answer else { return }
        do {
            let accountPeerId = self.peerId
            try postbox.transactionSync { tx in
                _ = try storeDialogs(
                    value.dialogs, messages: value.messages, users: value.users, chats: value.chats,
                    accountPeerId: accountPeerId, transaction: tx)
            }
        } catch {
            throw .storage("storing the dialog: \(error)")
        }
    }
}
