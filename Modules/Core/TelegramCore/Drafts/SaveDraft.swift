import Foundation
public import Postbox
public import SwiftSignalKit
public import SyncCore
import SyncCoreApi
import TelegramApi

/// Drafts kept by the server for every device of the account (core.telegram.org "Message drafts",
/// `messages.saveDraft`; Telegram-iOS `TelegramCore/Sources/State/ManagedSynchronizeChatInputStateOperations.swift`).
/// The draft is stored here at once (`ChatInputStates`), then sent; other devices get `updateDraftMessage`, which the
/// state manager stores the same way, and the server clears it when a message is sent to the chat.
extension Account {
    /// Saves `text` (with `entities`, replying to `replyTo`) as the draft of `peerId`'s chat; an empty (or all
    /// white-space) text clears it. The server's errors come as `.server` (`MESSAGE_TOO_LONG` past 4,096
    /// characters).
    public func saveDraft(
        _ peerId: PeerId, text: String, entities: [MessageTextEntity] = [], replyTo: Int32? = nil
    ) async throws(PeerActionError) {
        let clearing = text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        let peer = try storedInputPeer(peerId)
        let state =
            clearing
            ? nil
            : SynchronizeableChatInputState(
                text: text, entities: entities, replyToMessageId: replyTo,
                timestamp: Int32(clamping: Int64(clock())))
        do {
            try postbox.transactionSync { tx in try ChatInputStates.set(state, for: peerId, transaction: tx) }
        } catch {
            throw .storage("storing the draft: \(error)")
        }
        let saved = try await peerActionRequest(
            Api.functions.messages.saveDraft(
                replyTo: clearing ? nil : replyTo.map { .inputReplyToMessage(.init(replyToMsgId: $0)) }, peer: peer,
                message: clearing ? "" : text,
                entities: clearing || entities.isEmpty ? nil : entities.compactMap { $0.apiEntity() }))
        guard saved else { throw .server("saveDraft answered false") }
    }

    /// The draft stored for `peerId`'s chat, if any.
    public func draft(_ peerId: PeerId) -> SynchronizeableChatInputState? {
        (try? postbox.readTransactionSync { tx in try ChatInputStates.draft(peerId, transaction: tx) }) ?? nil
    }

    /// Asks the server for every draft (`messages.getAllDrafts`, as Telegram-iOS does after signing in) and stores
    /// them, replacing what is stored.
    public func refreshDrafts() async throws(PeerActionError) {
        let answer = try await peerActionRequest(Api.functions.messages.getAllDrafts())
        guard case .updates(let body) = answer else { return }
        let accountPeerId = self.peerId
        do {
            try postbox.transactionSync { tx in
                _ = try UpdateBatchApplier(accountPeerId: accountPeerId).storePeers(
                    users: body.users, chats: body.chats, transaction: tx)
                var drafts: [PeerId: SynchronizeableChatInputState] = [:]
                for case .updateDraftMessage(let update) in body.updates {
                    drafts[PeerId(update.peer)] = SynchronizeableChatInputState(apiDraft: update.draft)
                }
                try tx.setPreferencesEntry(key: ChatInputStates.key, value: ChatInputStates(drafts: drafts))
            }
        } catch {
            throw .storage("storing the drafts: \(error)")
        }
    }
}

extension Account {
    /// Every chat's draft, now and each time one changes (the `ChatInputStates` preferences entry).
    public var drafts: Signal<[PeerId: SynchronizeableChatInputState], NoError> {
        postbox.combinedView(keys: [.preferences([ChatInputStates.key])])
            |> map { view in
                let preferences = view.views[.preferences([ChatInputStates.key])] as? PreferencesView
                return (preferences?.values[ChatInputStates.key] as? ChatInputStates)?.drafts ?? [:]
            }
            |> distinctUntilChanged
    }
}
