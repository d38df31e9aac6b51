import ServerStore
import TelegramApi

/// The account's seq sequence (core.telegram.org "Working with updates", "Event sequences"): `updates` and
/// `updatesCombined` that carry only updates outside the pts and qts sequences — privacy, blocking, notify settings,
/// drafts — are numbered one after another per account, so a client can tell it missed one. Every other push keeps
/// `seq = 0` ("apply without checking"): `updateShort*`, and `updates` around pts-carrying updates.
///
/// Each update takes one seq: a push of one update is `updates` with `seq`, a push of several is `updatesCombined`
/// from `seq_start` (the first's) to `seq` (the last's), which a client applies only when `seq_start` follows its own
/// seq (Telethon's `MessageBox.process_updates`, TDLib's `UpdatesManager`). The seq is stored with
/// the account's state in the same transaction, so `updates.getState` and `getDifference` report it; the push goes
/// out after the commit, in commit order, to every session of the account — the calling one too, since a call's
/// result carries no seq.
extension ServerBackend {
    /// The push of `updates` (an `updates` of updates outside pts and qts) to `owner`'s sessions, numbered with
    /// `owner`'s next seq(s) in `tx`; `nil` when it carries no updates or the account has no state.
    func seqPush(_ updates: Api.Updates, owner: Int64, tx: StoreTransaction) throws -> Push? {
        guard case .updates(let body) = updates, !body.updates.isEmpty else { return nil }
        let count = Int64(body.updates.count)
        guard let last = try tx.advanceSeq(owner: owner, by: count) else { return nil }
        let seq = Int32(truncatingIfNeeded: last)
        let numbered: Api.Updates =
            count == 1
            ? .updates(.init(updates: body.updates, users: body.users, chats: body.chats, date: body.date, seq: seq))
            : .updatesCombined(
                .init(
                    updates: body.updates, users: body.users, chats: body.chats, date: body.date,
                    seqStart: Int32(truncatingIfNeeded: last - count + 1), seq: seq))
        return Push(authKeyIds: try authKeys(of: owner, tx: tx), updates: numbered, includesCaller: true)
    }
}
