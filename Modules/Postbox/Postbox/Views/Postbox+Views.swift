import Dispatch
public import SwiftSignalKit
import Synchronization
public import ValueBox

/// Live views as Signals (Telegram-iOS `Postbox.swift`): each subscription builds its own mutable view on the writer
/// queue, emits the initial snapshot, then one snapshot after each transaction that changed it. Snapshots are delivered
/// on the writer queue; disposing unregisters the view.
extension Postbox {
    /// Opens a live view made by `make` (which reads through a read transaction on the writer connection).
    func liveView<View: MutablePostboxView>(
        _ make: @escaping @Sendable (Transaction) throws -> View
    ) -> Signal<View.Snapshot, NoError> {
        Signal { [self] subscriber in
            let registration = ViewRegistration()
            queue.justDispatch { self.open(make, registration, subscriber) }
            return ActionDisposable { [weak self] in
                guard case .registered(let id) = registration.dispose(), let self else { return }
                self.queue.justDispatch { self.closeView(id) }
            }
        }
    }

    /// On the writer queue: builds the view, registers it and delivers its initial snapshot.
    private func open<View: MutablePostboxView>(
        _ make: (Transaction) throws -> View, _ registration: ViewRegistration,
        _ subscriber: Subscriber<View.Snapshot, NoError>
    ) {
        guard registration.isPending else { return }
        var deliveries: [() -> Void] = []
        do {
            try valueBox.beginRead()
            defer { valueBox.rollback() }
            let transaction = Transaction(tables: tables, isReadOnly: true)
            let stateVersion = try tables.metadata.transactionStateVersion()
            if stateVersion != lastTransactionStateVersion {
                deliveries = try catchUpWithExternalWrites(transaction, stateVersion: stateVersion)
            }
            let view = try make(transaction)
            let initial = view.immutableView()
            let id = viewTracker.add(view, initial: initial) { subscriber.putNext($0) }
            if registration.register(id) {
                deliveries.append { subscriber.putNext(initial) }
            } else {
                viewTracker.remove(id)  // disposed while it was being built
            }
        } catch {
            reportStorageFailure(PostboxError.from(error))
            deliveries.append { subscriber.putCompletion() }
        }
        if !viewTracker.isEmpty {
            // The wake-up runs on the writer queue itself: one thread hop from another process's write to the views'
            // delivery, not two (each hop is a scheduling wait on a loaded machine).
            if let dispatch = queue.queue {
                notifier.start(on: dispatch) { [weak self] in self?.checkExternalChanges() }
            } else {
                // A writer queue of the opener's (a simulation's): the wake-up hops onto it.
                notifier.start(on: .global()) { [weak self] in
                    self?.queue.justDispatch { [weak self] in self?.checkExternalChanges() }
                }
            }
        }
        for delivery in deliveries { delivery() }
    }

    /// On the writer queue: unregisters a view; the wake-up stops with the last one.
    private func closeView(_ id: Int) {
        viewTracker.remove(id)
        if viewTracker.isEmpty { notifier.stop() }
    }

    /// Counters of the live-view machinery.
    public func viewStatistics() -> PostboxViewStatistics {
        syncOnQueue { viewTracker.statistics }
    }
}

/// Where a view subscription stands: not yet built, registered under an id, or disposed.
final class ViewRegistration: Sendable {
    enum State: Equatable {
        case pending
        case registered(Int)
        case disposed
    }

    private let state = Mutex<State>(.pending)

    var isPending: Bool { state.withLock { $0 == .pending } }

    /// Records the id unless the subscription was disposed meanwhile; returns whether it was recorded.
    func register(_ id: Int) -> Bool {
        state.withLock { state in
            guard state == .pending else { return false }
            state = .registered(id)
            return true
        }
    }

    /// Marks the subscription disposed and returns what it was.
    func dispose() -> State {
        state.withLock { state in
            defer { state = .disposed }
            return state
        }
    }
}

/// The views a client opens (Telegram-iOS Postbox dedicated entry points).
extension Postbox {
    /// `count` messages of a chat around `anchor`, optionally only those with `tag`.
    public func aroundMessageHistoryViewForLocation(
        peerId: PeerId, anchor: HistoryViewInputAnchor, count: Int, tag: MessageTags? = nil
    ) -> Signal<MessageHistoryView, NoError> {
        liveView { try MutableMessageHistoryView($0, peerId: peerId, anchor: anchor, count: count, tag: tag) }
    }

    /// The top `count` chats of the chat list.
    public func tailChatListView(count: Int) -> Signal<ChatListView, NoError> {
        liveView { try MutableChatListView($0, anchor: .top, count: count) }
    }

    /// `count` chats around a place in the chat list.
    public func aroundChatListView(index: ChatListIndex, count: Int) -> Signal<ChatListView, NoError> {
        liveView { try MutableChatListView($0, anchor: .index(index), count: count) }
    }

    /// One peer and its presence.
    public func peerView(id: PeerId) -> Signal<PeerView, NoError> {
        liveView { try MutablePeerView($0, peerId: id) }
    }

    /// Several peers and their presences.
    public func multiplePeersView(_ ids: Set<PeerId>) -> Signal<MultiplePeersView, NoError> {
        liveView { try MutablePeersView($0, peerIds: ids) }
    }

    /// One message.
    public func messageView(_ id: MessageId) -> Signal<MessageView, NoError> {
        liveView { try MutableMessageView($0, messageId: id) }
    }

    /// Unread counts of chats and in total.
    public func unreadMessageCountsView(items: [UnreadMessageCountsItem]) -> Signal<UnreadMessageCountsView, NoError> {
        liveView { try MutableUnreadMessageCountsView($0, items: items) }
    }

    /// Preferences entries.
    public func preferencesView(keys: Set<ValueBoxKey>) -> Signal<PreferencesView, NoError> {
        liveView { try MutablePreferencesView($0, keys: keys) }
    }

    /// An ordered item list.
    public func orderedItemListView(collectionId: Int32) -> Signal<OrderedItemListView, NoError> {
        liveView { try MutableOrderedItemListView($0, collectionId: collectionId) }
    }

    /// The account's contacts with their peers and presences.
    public func contactPeersView() -> Signal<ContactPeersView, NoError> {
        liveView { try MutableContactPeersView($0) }
    }

    /// The messages waiting to be sent.
    public func unsentMessageIdsView() -> Signal<UnsentMessageIdsView, NoError> {
        liveView { try MutableUnsentMessageIdsView($0) }
    }

    /// Several views in one snapshot per change.
    public func combinedView(keys: Set<PostboxViewKey>) -> Signal<CombinedView, NoError> {
        liveView { try MutableCombinedView($0, keys: keys) }
    }

    /// A one-off snapshot of a view as a fresh query would build it now, in a read transaction of its own (what a
    /// live view must always equal; used by tests and tools).
    public func viewSnapshot(_ key: PostboxViewKey) throws -> any PostboxView {
        try combinedViewSnapshot(keys: [key]).views[key]!
    }

    /// A one-off snapshot of several views, as `combinedView(keys:)` would start with.
    public func combinedViewSnapshot(keys: Set<PostboxViewKey>) throws -> CombinedView {
        try readTransactionSync { transaction in try MutableCombinedView(transaction, keys: keys).immutableView() }
    }
}
