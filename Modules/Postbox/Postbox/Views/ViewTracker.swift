/// Counters of the live-view machinery, for tests and diagnostics.
public struct PostboxViewStatistics: Equatable, Sendable {
    /// Views currently subscribed.
    public var openViews = 0
    /// Replays of a transaction that a view reported as possibly changing it.
    public var changedReplays = 0
    /// Views reloaded because another process (or a rolled-back transaction) changed what they show.
    public var externalReloads = 0
    /// Snapshots pushed to subscribers after the initial one.
    public var emissions = 0
}

/// The open live views of one Postbox and their subscribers (Telegram-iOS `ViewTracker`). Every write transaction
/// is replayed into every view before commit; the snapshots of views that changed are delivered after commit.
/// Used only on the Postbox writer queue.
final class ViewTracker {
    private var subscriptions: [Int: AnyViewSubscription] = [:]
    private var nextId = 0
    private(set) var statistics = PostboxViewStatistics()
    /// The chats whose inserted and updated messages some open view reads (the union of the views'
    /// `renderedMessagePeers`), kept as views open and close.
    private(set) var renderedMessagePeers: Set<PeerId> = []

    var isEmpty: Bool { subscriptions.isEmpty }

    /// Registers a view whose subscriber has already received `initial`; returns its id for `remove`.
    func add<View: MutablePostboxView>(
        _ view: View, initial: View.Snapshot, deliver: @escaping (View.Snapshot) -> Void
    ) -> Int {
        nextId += 1
        subscriptions[nextId] = ViewSubscription(view: view, last: initial, deliver: deliver, tracker: self)
        statistics.openViews = subscriptions.count
        renderedMessagePeers.formUnion(view.renderedMessagePeers)
        return nextId
    }

    func remove(_ id: Int) {
        guard subscriptions.removeValue(forKey: id) != nil else { return }
        statistics.openViews = subscriptions.count
        renderedMessagePeers = subscriptions.values.reduce(into: []) { $0.formUnion($1.renderedMessagePeers) }
    }

    /// Replays a transaction into every view; returns the deliveries to run once it has committed.
    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> [() -> Void] {
        var deliveries: [() -> Void] = []
        for id in subscriptions.keys.sorted() {
            guard let subscription = subscriptions[id] else { continue }
            if let delivery = try subscription.replay(transaction, operations) { deliveries.append(delivery) }
        }
        return deliveries
    }

    /// Lets every view reload if an external write touched it; returns the deliveries to run.
    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> [() -> Void] {
        var deliveries: [() -> Void] = []
        for id in subscriptions.keys.sorted() {
            guard let subscription = subscriptions[id] else { continue }
            if let delivery = try subscription.refresh(transaction, changes) { deliveries.append(delivery) }
        }
        return deliveries
    }

    fileprivate func noteChangedReplay() { statistics.changedReplays += 1 }
    fileprivate func noteReload() { statistics.externalReloads += 1 }
    fileprivate func noteEmission() { statistics.emissions += 1 }
}

private protocol AnyViewSubscription: AnyObject {
    var renderedMessagePeers: Set<PeerId> { get }
    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> (() -> Void)?
    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> (() -> Void)?
}

/// One subscriber's view and the last snapshot it received: a snapshot is pushed only when it differs from that
/// one, so a subscriber sees exactly one value per transaction that changed what it shows.
private final class ViewSubscription<View: MutablePostboxView>: AnyViewSubscription {
    let view: View
    /// The last snapshot delivered; set when a delivery runs, so a rolled-back transaction leaves it untouched.
    var last: View.Snapshot
    let deliver: (View.Snapshot) -> Void
    unowned let tracker: ViewTracker

    var renderedMessagePeers: Set<PeerId> { view.renderedMessagePeers }

    init(view: View, last: View.Snapshot, deliver: @escaping (View.Snapshot) -> Void, tracker: ViewTracker) {
        self.view = view
        self.last = last
        self.deliver = deliver
        self.tracker = tracker
    }

    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> (() -> Void)? {
        guard try view.replay(transaction, operations) else { return nil }
        tracker.noteChangedReplay()
        return delivery()
    }

    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> (() -> Void)? {
        guard try view.refresh(transaction, changes) else { return nil }
        tracker.noteReload()
        return delivery()
    }

    private func delivery() -> (() -> Void)? {
        let snapshot = view.immutableView()
        if snapshot.isEqual(to: last) { return nil }
        return { [self] in
            last = snapshot
            tracker.noteEmission()
            deliver(snapshot)
        }
    }
}
