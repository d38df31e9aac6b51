/// An immutable snapshot of a live view, pushed to subscribers after every transaction that changed it
/// (Telegram-iOS Postbox `PostboxView`).
public protocol PostboxView: Sendable {
    /// Whether `other` is a snapshot of the same kind showing the same content.
    func isEqual(to other: any PostboxView) -> Bool
}

extension PostboxView where Self: Equatable {
    public func isEqual(to other: any PostboxView) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// The live side of a view: it replays each write transaction's operations instead of re-running its query
/// (Telegram-iOS Postbox `MutablePostboxView`). Used only on the Postbox writer queue.
protocol MutablePostboxView: AnyObject, SendableMetatype {
    associatedtype Snapshot: PostboxView

    /// Applies one transaction's operations, reading only what it is missing (an edge of a window) through
    /// `transaction`; returns whether anything it shows may have changed.
    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> Bool

    /// Called after another process wrote: reloads when `changes` touch what the view shows; returns whether it did.
    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> Bool

    /// The current content as an immutable value.
    func immutableView() -> Snapshot

    /// The chats whose inserted and updated messages this view reads from `PostboxTransaction`'s
    /// `currentOperationsByPeerId`; a write transaction renders those messages only for the chats some open view (or
    /// any transaction observer) reads. Fixed for the view's lifetime.
    var renderedMessagePeers: Set<PeerId> { get }
}
