import Postbox
import SwiftSignalKit
import UpdateSequencing

/// The update batches the state manager has released but Postbox has not stored yet, written by a group commit: each
/// time Postbox's writer queue gets to them it stores every batch waiting, in order, in one transaction. The manager
/// never waits for a write, so it asks for a difference's next slice while the slices before it are stored, and a
/// write transaction's fixed cost (about 0.6 ms: FTS5's segment flush and the encrypted pages every commit touches)
/// is paid once for several slices (SQLite's own advice: batch inserts into transactions, sqlite.org/faq.html#q19).
///
/// A slice whose difference goes on (`write(_:moreFollows: true)`) may linger, as PostgreSQL's `commit_delay` lets a
/// commit wait for others to join it: it is written with the next batch that does not linger, once the lingering
/// batches hold `lingerEntryLimit` updates or number `lingerBatchLimit`, once a slice arrives `lingerSeconds` or more
/// after the first of them, or on `flushNow()` (a failed fetch, a stop) — whichever comes first. So lingering pays
/// only where round trips are short next to a write (a fast network, a large backlog); where a slice takes longer
/// than `lingerSeconds` to come, each is written as it arrives, as Telegram-iOS writes it. Nothing else lingers, and
/// whatever waits for the writes (`afterWrites`, `waitIfPending`) writes the lingering batches first.
///
/// Ordering: the writes run on Postbox's writer queue, so every transaction enqueued there after a batch — the
/// manager's own state writes, an action's local write — comes after that batch's commit. Read transactions run on
/// connections of their own; a reader that must see what was handed here calls `waitIfPending()` first. `afterWrites`
/// runs work once everything handed here before it is stored (the "caught up" and "updating" signals, `handledSoFar`).
final class StateWrites: @unchecked Sendable {
    /// What the writer reports for each batch it stored, in order, on the writer queue after the commit.
    struct Stored {
        let batch: UpdateSequencer.Batch
        let summary: UpdateBatchApplier.Summary
    }

    private enum Item {
        case batch(UpdateSequencer.Batch)
        case action(@Sendable () -> Void)
    }

    /// Lingering batches are written once they hold this many updates (10 of `getDifference`'s slices of up to
    /// 1,000) or number `lingerBatchLimit` (50 channel slices of the 100 clients ask for), whichever comes first: what
    /// lingers is bounded, and a channel catch-up of 50,000 posts is 10 transactions.
    static let lingerEntryLimit = 10_000
    /// At most this many batches linger, however few updates they hold.
    static let lingerBatchLimit = 50
    /// A slice that arrives this long after the first lingering one is written with them, so what the views show
    /// trails the network by at most this and one round trip.
    static let lingerSeconds = 0.05

    private struct State {
        var items: [Item] = []
        /// Batches waiting that may linger (none is written yet, none was asked to be).
        var lingering = 0
        /// The updates in those batches.
        var lingeringEntries = 0
        /// When the first of them arrived (the manager queue's clock).
        var lingerStarted = 0.0
        /// A flush is enqueued on the writer queue and has not taken the items yet.
        var scheduled = false
        /// Items handed here and not yet done (taken items included): zero means nothing is pending.
        var outstanding = 0
    }

    private let postbox: Postbox
    private let applier: UpdateBatchApplier
    /// The manager queue's clock (virtual in tests and the simulation), for how long batches have lingered.
    private let now: @Sendable () -> Double
    private let state = LockedValue(State())
    /// Called on the writer queue for each group: its batches as stored (in order), and the transaction's seconds.
    private let didStore: @Sendable ([Stored], Double) -> Void
    /// Called on the writer queue for a batch that could not be stored, even alone.
    private let didFail: @Sendable (any Error) -> Void

    init(
        postbox: Postbox, applier: UpdateBatchApplier, now: @escaping @Sendable () -> Double,
        didStore: @escaping @Sendable ([Stored], Double) -> Void, didFail: @escaping @Sendable (any Error) -> Void
    ) {
        self.postbox = postbox
        self.applier = applier
        self.now = now
        self.didStore = didStore
        self.didFail = didFail
    }

    /// Nothing handed here is waiting or being written.
    var isIdle: Bool { state.withLock { $0.outstanding == 0 } }

    /// Hands `batch` to the writer: it is stored with whatever else is waiting when the writer queue gets to it.
    /// `moreFollows`: the difference it came from goes on, so it may linger for the next slices.
    func write(_ batch: UpdateSequencer.Batch, moreFollows: Bool = false) {
        append(.batch(batch), linger: moreFollows)
    }

    /// Writes the lingering batches now (the difference they belong to failed or stopped).
    func flushNow() {
        let schedule = state.withLock { state -> Bool in
            guard !state.items.isEmpty, !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        if schedule { postbox.writerQueueAsync { [self] in flush() } }
    }

    /// Runs `action` once every batch handed here before it is stored (at once, on this thread, when none is
    /// pending; otherwise on the writer queue after the commit).
    func afterWrites(_ action: @escaping @Sendable () -> Void) {
        let pending = state.withLock { $0.outstanding > 0 }
        if pending { append(.action(action), linger: false) } else { action() }
    }

    /// Blocks until every batch handed here so far is stored, if any is pending: for a read transaction that must see
    /// them.
    func waitIfPending() {
        guard !isIdle else { return }
        flushNow()
        postbox.waitForWrites()
    }

    private func append(_ item: Item, linger: Bool) {
        let time = linger ? now() : 0
        let schedule = state.withLock { state -> Bool in
            state.items.append(item)
            state.outstanding += 1
            if linger {
                if state.lingering == 0 { state.lingerStarted = time }
                state.lingering += 1
                if case .batch(let batch) = item { state.lingeringEntries += batch.entries.count }
            }
            let full =
                state.lingering >= Self.lingerBatchLimit || state.lingeringEntries >= Self.lingerEntryLimit
                || time - state.lingerStarted >= Self.lingerSeconds
            guard !linger || full, !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        if schedule { postbox.writerQueueAsync { [self] in flush() } }
    }

    /// On the writer queue: stores every batch waiting in one transaction (each alone if the group fails, so one bad
    /// batch costs only itself), reports them, then runs the actions that were waiting for them. What a batch's
    /// `secretChats` hook did outside the transaction (a secret chat's kept updates, its qts acknowledgement) is not
    /// rolled back with it — as for a failing batch before grouping — so a batch stored alone after its group failed
    /// may repeat it; only a storage failure (a full disk, a corrupt file) takes this path.
    private func flush() {
        let items = state.withLock { state -> [Item] in
            state.scheduled = false
            state.lingering = 0
            state.lingeringEntries = 0
            defer { state.items = [] }
            return state.items
        }
        var batches: [UpdateSequencer.Batch] = []
        var actions: [@Sendable () -> Void] = []
        for item in items {
            switch item {
            case .batch(let batch): batches.append(batch)
            case .action(let action): actions.append(action)
            }
        }
        if !batches.isEmpty { store(batches) }
        state.withLock { $0.outstanding -= items.count }
        for action in actions { action() }
    }

    private func store(_ batches: [UpdateSequencer.Batch]) {
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let summaries = try postbox.transactionSync { tx in
                try batches.map { try applier.apply($0, transaction: tx) }
            }
            didStore(zip(batches, summaries).map { Stored(batch: $0, summary: $1) }, (clock.now - started).inSeconds)
        } catch {
            guard batches.count > 1 else {
                didFail(error)
                return
            }
            for batch in batches {
                let alone = clock.now
                do {
                    let summary = try postbox.transactionSync { tx in try applier.apply(batch, transaction: tx) }
                    didStore([Stored(batch: batch, summary: summary)], (clock.now - alone).inSeconds)
                } catch {
                    didFail(error)
                }
            }
        }
    }
}
