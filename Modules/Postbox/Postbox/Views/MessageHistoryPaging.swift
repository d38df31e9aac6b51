public import SwiftSignalKit

/// The chat screen's paging rule over a `MessageHistoryView`: keep a window of 44 messages around an anchor, and
/// when the visible range comes within 5 entries of a window edge past which more messages are stored, move the
/// anchor to the middle of the visible range, so the new window again extends past both visible edges.
public struct MessageHistoryPaging: Hashable, Sendable {
    /// Messages per window (Telegram's chat screen asks for 44).
    public let windowSize: Int
    /// How close (in entries) the visible range may come to a window edge before the window moves.
    public let edgeDistance: Int

    public init(windowSize: Int = 44, edgeDistance: Int = 5) {
        self.windowSize = max(1, windowSize)
        self.edgeDistance = max(0, edgeDistance)
    }

    /// The anchor to move to when entries `visible` (positions in `view.entries`) are on screen, or `nil` to keep
    /// the window.
    public func anchor(forVisible visible: ClosedRange<Int>, in view: MessageHistoryView) -> HistoryViewInputAnchor? {
        guard !view.entries.isEmpty else { return nil }
        let first = max(0, min(visible.lowerBound, view.entries.count - 1))
        let last = max(first, min(visible.upperBound, view.entries.count - 1))
        let nearEarlierEdge = first < edgeDistance && view.earlierId != nil
        let nearLaterEdge = view.entries.count - 1 - last < edgeDistance && view.laterId != nil
        guard nearEarlierEdge || nearLaterEdge else { return nil }
        return .index(view.entries[(first + last) / 2].index)
    }
}

/// A chat screen's history: a live `MessageHistoryView` whose window follows the visible range by the paging rule.
/// The view signal switches to a new window when `visibleRangeChanged` moves the anchor; a window emits only what
/// changed, as any view does.
public final class ChatHistoryPager: Sendable {
    public let peerId: PeerId
    public let tag: MessageTags?
    public let paging: MessageHistoryPaging
    private let anchor: ValuePromise<HistoryViewInputAnchor>

    /// The history of `peerId` starting at `anchor` (the newest messages by default).
    public init(
        peerId: PeerId, tag: MessageTags? = nil, anchor: HistoryViewInputAnchor = .upperBound,
        paging: MessageHistoryPaging = MessageHistoryPaging()
    ) {
        self.peerId = peerId
        self.tag = tag
        self.paging = paging
        self.anchor = ValuePromise(anchor, ignoreRepeated: true)
    }

    /// The current window as a live view (it switches windows when the anchor moves).
    public func view(_ postbox: Postbox) -> Signal<MessageHistoryView, NoError> {
        let peerId = peerId
        let tag = tag
        let count = paging.windowSize
        return anchor.get()
            |> mapToSignal { anchor in
                postbox.aroundMessageHistoryViewForLocation(peerId: peerId, anchor: anchor, count: count, tag: tag)
            }
    }

    /// Reports the entries on screen (positions in `view.entries`); moves the window when the rule says so.
    /// Returns the new anchor, if it moved.
    @discardableResult
    public func visibleRangeChanged(_ visible: ClosedRange<Int>, in view: MessageHistoryView) -> HistoryViewInputAnchor?
    {
        guard let next = paging.anchor(forVisible: visible, in: view) else { return nil }
        anchor.set(next)
        return next
    }
}
