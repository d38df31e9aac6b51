import Postbox
import SyncCore
import SyncCoreApi
import TelegramApi

/// A poll as Postbox keeps it: one shared `TelegramMediaPoll` under its id that every message showing it refers to,
/// replaced by each `updateMessagePoll` (Telegram-iOS `AccountStateManagementUtils.swift`, `.UpdateMessagePoll`:
/// `transaction.updateMedia` with the poll's new results; `min` results keep which answers we chose).
enum MessagePollState {
    /// Applies `update` to the stored poll; returns whether it changed (a poll not stored is left to the history fetch
    /// that brings it with its results).
    static func apply(_ update: Api.Update.Cons_updateMessagePoll, transaction tx: Transaction) throws -> Bool {
        let id = MediaId(namespace: Namespaces.Media.cloudPoll, id: update.pollId)
        guard let current = try tx.getMedia(id) as? TelegramMediaPoll else { return false }
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
        guard updated != current else { return false }
        try tx.updateMedia(id, update: updated)
        return true
    }
}
