import Foundation
public import Postbox
import SwiftSignalKit
public import SyncCore
public import TelegramCore
import TextFormat

/// Markdown as the user types it, into the text and entities a message carries (TDLib's `parseMarkdown`).
public enum OutgoingText {
    public static func parse(_ markdown: String) -> (text: String, entities: [MessageTextEntity]) {
        MarkdownParser.parse(markdown)
    }
}

/// Sends through the account's pending-message manager and waits until the server has every message: the local
/// messages are stored at once, uploads report their progress, and each ends as the server's message or as a failure
/// with the server's reason.
public enum MessageSending {
    /// Enqueues `messages` in `peerId` and waits (at most `timeout` seconds) until each is the server's; returns
    /// them in order. `progress` gets the upload's acknowledged fraction (0…1) while media goes up.
    public static func send(
        _ messages: [EnqueueMessage], to peerId: PeerId, account: Account, timeout: Double,
        progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) async throws(ClientError) -> [Message] {
        let enqueued: [Account.EnqueuedMessage]
        do { enqueued = try account.enqueueTracked(messages, to: peerId) } catch {
            throw .badInput("the message cannot be sent: \(error)")
        }
        return try await waitUntilSent(enqueued, in: peerId, account: account, timeout: timeout, progress: progress)
    }

    /// Waits (at most `timeout` seconds) until each enqueued message is the server's — found by its `random_id`,
    /// so one the server answered before this wait began is found too — or one failed; returns them in order.
    public static func waitUntilSent(
        _ enqueued: [Account.EnqueuedMessage], in peerId: PeerId, account: Account, timeout: Double,
        progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) async throws(ClientError) -> [Message] {
        let localIds = enqueued.map(\.localId)
        let uniqueIds = enqueued.map(\.randomId)
        var lastProgress = -1.0
        return try await waitUntil(
            "sending", timeout: timeout, wakingOn: changes(of: localIds, account: account)
        ) { () throws(ClientError) -> [Message]? in
            let fractions = localIds.compactMap { account.pendingMessages.uploadProgress($0) }
            if !fractions.isEmpty {
                let fraction = fractions.reduce(0, +) / Double(localIds.count)
                if fraction != lastProgress {
                    lastProgress = fraction
                    progress(fraction)
                }
            }
            let current: [Message] = try read(account) { tx in
                try uniqueIds.compactMap { unique in
                    try tx.messageId(peerId: peerId, globallyUniqueId: unique).flatMap { try tx.getMessage($0) }
                }
            }
            if let failed = current.first(where: { $0.attributes.contains { $0 is SendFailureAttribute } }) {
                let reason = failed.attributes.compactMap { $0 as? SendFailureAttribute }.first
                throw .refused(
                    "the server refused the message: \(reason.map { $0.detail.isEmpty ? "\($0.reason)" : $0.detail } ?? "unknown")"
                )
            }
            guard current.count == localIds.count, current.allSatisfy({ $0.id.namespace == Namespaces.Message.cloud })
            else { return nil }
            if lastProgress >= 0 && lastProgress < 1 { progress(1) }
            return current
        }
    }

    /// What can move a send on: a commit that changed one of the local messages (replaced by the server's, marked
    /// failed, deleted), an applied update batch (the difference that brings the server's copy after
    /// `RANDOM_ID_DUPLICATE`), and an upload report of one of them.
    static func changes(of localIds: [MessageId], account: Account) -> Signal<Void, NoError> {
        let ids = Set(localIds)
        return merge([
            account.postbox.combinedView(keys: Set(localIds.map { PostboxViewKey.message($0) })) |> map { _ in () },
            account.stateManager.appliedBatches |> map { _ in () },
            account.pendingMessages.uploadProgressUpdates |> filter { ids.contains($0) } |> map { _ in () },
        ])
    }

    static func read<T>(_ account: Account, _ body: (Transaction) throws -> T) throws(ClientError) -> T {
        do { return try account.postbox.readTransactionSync(body) } catch {
            throw .storage("reading the account: \(error)")
        }
    }
}
