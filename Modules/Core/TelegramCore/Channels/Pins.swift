public import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// Pinning messages (core.telegram.org `messages.updatePinnedMessage`, `messages.unpinAllMessages`; Telegram-iOS
/// `TelegramCore/Sources/TelegramEngine/Messages/UpdatePinnedMessage.swift`). The answer's `updatePinnedMessages` (or
/// `updatePinnedChannelMessages`) and the pin's service message go through the state manager in their pts sequence,
/// which tags the stored message `.pinned` (`PinnedMessages`).
extension Account {
    /// Pins `messageId` in its chat: for everyone with a service message (`silent`: without notifying), or in a
    /// private chat only for oneself (`oneSide`, no service message). Pinning a pinned message changes nothing.
    public func pin(_ messageId: MessageId, silent: Bool = false, oneSide: Bool = false) async throws(PeerActionError) {
        let peer = try storedInputPeer(messageId.peerId)
        try applyActionUpdates(
            try await peerActionRequest(
                Api.functions.messages.updatePinnedMessage(
                    silent: silent, pmOneside: oneSide, peer: peer, id: messageId.id)))
    }

    /// Unpins `messageId` (no service message); `oneSide`: in a private chat, for oneself only (the other side keeps
    /// its pin).
    public func unpin(_ messageId: MessageId, oneSide: Bool = false) async throws(PeerActionError) {
        let peer = try storedInputPeer(messageId.peerId)
        try applyActionUpdates(
            try await peerActionRequest(
                Api.functions.messages.updatePinnedMessage(
                    unpin: true, pmOneside: oneSide, peer: peer, id: messageId.id)))
    }

    /// Unpins every pinned message of `peerId`'s chat for everyone, asking again while the server says more remain
    /// (`offset`). Each answer's pts goes into the chat's sequence as the unpin it stands for, naming the messages
    /// stored pinned here (Telegram-iOS applies `messages.affectedHistory` the same way).
    public func unpinAll(_ peerId: PeerId) async throws(PeerActionError) {
        let peer = try storedInputPeer(peerId)
        guard let apiPeer = peerId.apiPeer else { throw .unsupported("\(peerId) cannot have pinned messages") }
        var more = true
        while more {
            let pinned: [Int32]
            do {
                pinned = try postbox.readTransactionSync { tx in
                    try PinnedMessages.all(in: peerId, limit: 10_000, transaction: tx).map(\.id)
                }
            } catch {
                throw .storage("reading the pinned messages: \(error)")
            }
            let answer = try await peerActionRequest(Api.functions.messages.unpinAllMessages(peer: peer))
            guard case .affectedHistory(let moved) = answer else { return }
            let update: Api.Update
            if peerId.namespace == Namespaces.Peer.cloudChannel {
                update = .updatePinnedChannelMessages(
                    .init(
                        pinned: false, channelId: peerId.id.rawValue, messages: pinned, pts: moved.pts,
                        ptsCount: moved.ptsCount))
            } else {
                update = .updatePinnedMessages(
                    .init(pinned: false, peer: apiPeer, messages: pinned, pts: moved.pts, ptsCount: moved.ptsCount))
            }
            if moved.ptsCount > 0 { stateManager.addUpdates(.updateShort(.init(update: update, date: 0))) }
            more = moved.offset > 0
        }
    }

    /// The newest pinned message of `peerId`'s chat as the server has it (`messages.search` with
    /// `inputMessagesFilterPinned`, as Telegram-iOS asks for a chat's pinned messages), found even when it is older
    /// than the history stored; `nil` when nothing is pinned. The stored copy, if any, is tagged `.pinned` and stored
    /// messages tagged newer than it are untagged (an unpin this account missed); a message not stored is returned
    /// without storing it (a lone message would hide the hole the rest of the history must come from).
    public func newestPinnedMessage(_ peerId: PeerId) async throws(PeerActionError) -> Message? {
        let peer = try storedInputPeer(peerId)
        let answer = try await peerActionRequest(
            Api.functions.messages.search(
                peer: peer, q: "", filter: .inputMessagesFilterPinned, minDate: 0, maxDate: 0, offsetId: 0,
                addOffset: 0, limit: 1, maxId: 0, minId: 0, hash: 0))
        let (messages, users, chats) = HistoryHoleFetcher.contents(answer)
        let accountPeerId = self.peerId
        do {
            return try postbox.transactionSync { tx -> Message? in
                _ = try UpdateBatchApplier(accountPeerId: accountPeerId).storePeers(
                    users: users, chats: chats, transaction: tx)
                let found = messages.compactMap { StoreMessage(apiMessage: $0, accountPeerId: accountPeerId) }.first
                guard let found, case .id(let id) = found.id, id.peerId == peerId else {
                    try PinnedMessages.setPinned(
                        false, try PinnedMessages.all(in: peerId, limit: 10_000, transaction: tx), transaction: tx)
                    return nil
                }
                let stale = try PinnedMessages.all(in: peerId, limit: 10_000, transaction: tx).filter { $0.id > id.id }
                try PinnedMessages.setPinned(false, stale, transaction: tx)
                if try tx.messageIndex(id) != nil {
                    try PinnedMessages.setPinned(true, [id], transaction: tx)
                    return try tx.getMessage(id)
                }
                let author = try found.authorId.flatMap { try tx.getPeer($0) }
                return Message(
                    stableId: 0, stableVersion: 0, id: id, globallyUniqueId: found.globallyUniqueId,
                    groupingKey: found.groupingKey, threadId: found.threadId, timestamp: found.timestamp,
                    flags: found.flags, tags: found.tags, authorId: found.authorId, author: author, text: found.text,
                    attributes: found.attributes, media: found.media)
            }
        } catch {
            throw .storage("storing the pinned message: \(error)")
        }
    }

    /// The stored peer `peerId` as an `InputPeer`, or `.unknownPeer`.
    func storedInputPeer(_ peerId: PeerId) throws(PeerActionError) -> Api.InputPeer {
        let input: Api.InputPeer?
        do {
            input = try postbox.readTransactionSync { tx in
                try apiInputPeer(peerId, accountPeerId: self.peerId, transaction: tx)
            }
        } catch {
            throw .storage("reading the account: \(error)")
        }
        guard let input else { throw .unknownPeer("the chat \(peerId) is not stored in this account") }
        return input
    }
}
