import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// A poll as Postbox keeps it: one shared `TelegramMediaPoll` under its id that every message showing it refers to,
/// replaced by each `updateMessagePoll` (Telegram-iOS `AccountStateManagementUtils.swift`, `.UpdateMessagePoll`:
/// `transaction.updateMedia` with the poll's new results; `min` results keep which answers we chose).
enum MessagePollState {
    /// What applying an update did.
    enum Outcome: Equatable {
        case changed, unchanged
        /// No poll with its id is stored (yet: our own poll's send may be answered after someone voted in it).
        case notStored
    }

    /// Applies `update` to the stored poll; returns whether it changed.
    static func apply(_ update: Api.Update.Cons_updateMessagePoll, transaction tx: Transaction) throws -> Bool {
        try applyReporting(update, transaction: tx) == .changed
    }

    /// Applies `update` to the stored poll and says what happened.
    static func applyReporting(
        _ update: Api.Update.Cons_updateMessagePoll, transaction tx: Transaction
    ) throws -> Outcome {
        let id = MediaId(namespace: Namespaces.Media.cloudPoll, id: update.pollId)
        guard let current = try tx.getMedia(id) as? TelegramMediaPoll else { return .notStored }
        let results = TelegramMediaPollResults(update.results)
        let min = TelegramMediaPollResults.isMin(update.results)
        var updated = current.withUpdatedResults(results, min: min)
        if let poll = update.poll {
            // The poll itself changed (it closed): its fields from the server, its results as just merged.
            var fresh = TelegramMediaPoll(poll, results: update.results)
            fresh.results = updated.results
            fresh.correctAnswers = current.correctAnswers
            updated = fresh
        }
        guard updated != current else { return .unchanged }
        try tx.updateMedia(id, update: updated)
        return .changed
    }
}
