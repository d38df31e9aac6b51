import Postbox
import SwiftSignalKit
import UpdateSequencing

/// The update batches the state manager has released but Postbox has not stored yet, written by a group commit: each
/// time Postbox's writer queue gets to them it stores every batch waiting, in order, in one transaction. The manager
/// never waits for a write, so it asks for a difference's next slice while the slices before it are stored, and a
/// write transaction's fixed cost (about 0.6 ms: FTS5's segment flush and the encrypted pages every commit touches)
/// is paid once for several slices (SQLite's own advice: batch inserts into transactions, sqlite.org/faq.html#q19).
///
/// Nothing waits for company: a batch handed to an idle writer is written at once (a slice alone, as Telegram-iOS
/// writes it), and the batches handed while the writer stores wait only for that store, then go together. So the
/// transactions grow with the backlog by themselves — a catch-up whose slices come faster than the writer stores them
/// writes them many a transaction — and the writer is never idle while anything waits. (An earlier version let a
/// difference's slices linger for the next ones, as PostgreSQL's `commit_delay`; with the writer the slower side, the
/// writer then sat idle while slices gathered, and both catch-ups were 10–25 % slower: BENCHMARKS.md.)
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

    private struct State {
        var items: [Item] = []
        /// A flush is enqueued on the writer queue and has not taken the items yet.
        var scheduled = false
        /// Items handed here and not yet done (taken items included): zero means nothing is pending.
        var outstanding = 0
    }

    private let postbox: Postbox
    private let applier: UpdateBatchApplier
    private let state = LockedValue(State())
    /// Called on the writer queue for each group: its batches as stored (in order), and the transaction's seconds.
    private let didStore: @Sendable ([Stored], Double) -> Void
    /// Called on the writer queue for a batch that could not be stored, even alone.
    private let didFail: @Sendable (any Error) -> Void

    init(
        postbox: Postbox, applier: UpdateBatchApplier, didStore: @escaping @Sendable ([Stored], Double) -> Void,
        didFail: @escaping @Sendable (any Error) -> Void
    ) {
        self.postbox = postbox
        self.applier = applier
        self.didStore = didStore
        self.didFail = didFail
    }

    /// Nothing handed here is waiting or being written.
    var isIdle: Bool { state.withLock { $0.outstanding == 0 } }

    /// Hands `batch` to the writer: it is stored with whatever else is waiting when the writer queue gets to it.
    func write(_ batch: UpdateSequencer.Batch) {
        append(.batch(batch))
    }

    /// Runs `action` once every batch handed here before it is stored (at once, on this thread, when none is
    /// pending; otherwise on the writer queue after the commit).
    func afterWrites(_ action: @escaping @Sendable () -> Void) {
        let pending = state.withLock { $0.outstanding > 0 }
        if pending { append(.action(action)) } else { action() }
    }

    /// Blocks until every batch handed here so far is stored, if any is pending: for a read transaction that must see
    /// them. (Whatever is pending has its flush enqueued already, so the writer queue's barrier comes after it.)
    func waitIfPending() {
        guard !isIdle else { return }
        postbox.waitForWrites()
    }

    private func append(_ item: Item) {
        let schedule = state.withLock { state -> Bool in
            state.items.append(item)
            state.outstanding += 1
            guard !state.scheduled else { return false }
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
