/// A loaded message in a history window, ordered by index.
struct HistoryWindowItem: WindowEntry {
    let message: Message
    var windowKey: MessageIndex { message.index }
}

/// The live side of `MessageHistoryView` (Telegram-iOS Postbox `MutableMessageHistoryView`): a window around the anchor
/// kept in step with the chat's operations; it reads only a window edge that runs short, the holes next to the
/// window, and messages whose author or shared media changed.
final class MutableMessageHistoryView: MutablePostboxView {
    /// Holes are tracked in the cloud namespace, where the server fills them.
    static let holeNamespace: Int32 = 0

    let peerId: PeerId
    let tag: MessageTags?
    let count: Int
    private(set) var anchor: HistoryViewInputAnchor
    private var window: AnchoredWindow<HistoryWindowItem>
    private var readState: CombinedPeerReadState?
    private var holeEarlier = false
    private var holeLater = false

    /// The chat shown: its inserted and updated messages go into the window.
    var renderedMessagePeers: Set<PeerId> { [peerId] }

    init(
        _ transaction: Transaction, peerId: PeerId, anchor: HistoryViewInputAnchor, count: Int, tag: MessageTags?
    )
        throws
    {
        self.peerId = peerId
        self.tag = tag.flatMap { $0.isEmpty ? nil : $0 }
        self.count = max(1, count)
        self.anchor = try Self.resolve(anchor, peerId: peerId, transaction)
        window = try AnchoredWindow(
            anchor: Self.windowAnchor(self.anchor), count: self.count,
            loader: Self.loader(transaction, peerId, self.tag))
        readState = try transaction.getCombinedPeerReadState(peerId)
        try updateHoles(transaction)
    }

    /// Turns `.message` and `.unread` into a position, as of now.
    private static func resolve(
        _ anchor: HistoryViewInputAnchor, peerId: PeerId, _ transaction: Transaction
    ) throws
        -> HistoryViewInputAnchor
    {
        switch anchor {
        case .lowerBound, .upperBound, .index: return anchor
        case .message(let id):
            return try transaction.messageIndex(id).map { .index($0) } ?? .upperBound
        case .unread:
            return try transaction.firstUnreadIncomingIndex(peerId: peerId, namespace: holeNamespace)
                .map { .index($0) } ?? .upperBound
        }
    }

    private static func windowAnchor(_ anchor: HistoryViewInputAnchor) -> WindowAnchor<MessageIndex> {
        switch anchor {
        case .lowerBound: return .lower
        case .index(let index): return .key(index)
        case .upperBound, .message, .unread: return .upper
        }
    }

    private static func loader(
        _ transaction: Transaction, _ peerId: PeerId, _ tag: MessageTags?
    ) -> WindowLoader<
        HistoryWindowItem
    > {
        WindowLoader(
            load: { side, beyond, count in
                let messages =
                    side == .lower
                    ? try transaction.earlierMessages(peerId: peerId, before: beyond, count: count, tag: tag)
                    : try transaction.laterMessages(peerId: peerId, after: beyond, count: count, tag: tag)
                return messages.map(HistoryWindowItem.init)
            },
            loadAt: { index in
                guard let message = try transaction.getMessage(index.id), message.index == index,
                    tag.map({ message.tags.contains($0) }) ?? true
                else { return nil }
                return HistoryWindowItem(message: message)
            })
    }

    private func matches(_ message: Message) -> Bool {
        tag.map { message.tags.contains($0) } ?? true
    }

    func replay(_ transaction: Transaction, _ operations: PostboxTransaction) throws -> Bool {
        var changed = false
        let peerOperations = operations.currentOperationsByPeerId[peerId]
        for operation in peerOperations ?? [] {
            switch operation {
            case .insertMessage(let message):
                if matches(message) { changed = window.insert(HistoryWindowItem(message: message)) || changed }
            case .remove(let removed):
                for (index, tags) in removed where tag.map({ tags.contains($0) }) ?? true {
                    changed = window.remove(index) || changed
                }
            case .updateMessage(let message):
                changed =
                    (matches(message)
                        ? window.insert(HistoryWindowItem(message: message)) : window.remove(message.index)) || changed
            case .updateReadState(let state):
                if state != readState {
                    readState = state
                    changed = true
                }
            case .updateEmbeddedMedia:
                break
            }
        }
        if !operations.updatedMedia.isEmpty || !operations.updatedPeers.isEmpty {
            changed =
                try window.update { item in
                    let message = item.message
                    let authorChanged = message.authorId.map { operations.updatedPeers[$0] != nil } ?? false
                    let mediaChanged = message.media.contains { media in
                        media.id.map { operations.updatedMedia[$0] != nil } ?? false
                    }
                    guard authorChanged || mediaChanged, let current = try transaction.getMessage(message.id) else {
                        return nil
                    }
                    return HistoryWindowItem(message: current)
                } || changed
        }
        if window.needsRefill {
            changed = try window.refill(Self.loader(transaction, peerId, tag)) || changed
        }
        let holesTouched = operations.holeOperations.keys.contains { $0.peerId == peerId }
        if peerOperations != nil || holesTouched {
            let before = (holeEarlier, holeLater)
            try updateHoles(transaction)
            changed = changed || before != (holeEarlier, holeLater)
        }
        return changed
    }

    func refresh(_ transaction: Transaction, _ changes: ExternalChanges) throws -> Bool {
        let loaded = window.loaded.map(\.message)
        let authors = Set(loaded.compactMap(\.authorId))
        let mediaIds = Set(loaded.flatMap { $0.media.compactMap(\.id) })
        guard changes.affectsHistory(of: peerId, authors: authors, mediaIds: mediaIds) else { return false }
        window = try AnchoredWindow(
            anchor: Self.windowAnchor(anchor), count: count, loader: Self.loader(transaction, peerId, tag))
        readState = try transaction.getCombinedPeerReadState(peerId)
        try updateHoles(transaction)
        return true
    }

    /// Recomputes whether holes touch the window's edges (see `MessageHistoryView.holeEarlier`).
    private func updateHoles(_ transaction: Transaction) throws {
        let space: MessageHistoryHoleSpace = tag.map { .tag($0) } ?? .everywhere
        let holes = try transaction.getHoles(peerId: peerId, namespace: Self.holeNamespace, space: space)
        guard !holes.isEmpty else {
            (holeEarlier, holeLater) = (false, false)
            return
        }
        let ids = window.visible.entries.lazy.map(\.message.id).filter { $0.namespace == Self.holeNamespace }.map(\.id)
        guard let lowest = ids.min(), let highest = ids.max() else {
            (holeEarlier, holeLater) = (true, false)
            return
        }
        let previous =
            try transaction.neighborMessageId(
                peerId: peerId, namespace: Self.holeNamespace, id: lowest, earlier: true) ?? Int32.min
        let next =
            try transaction.neighborMessageId(
                peerId: peerId, namespace: Self.holeNamespace, id: highest, earlier: false) ?? Int32.max
        holeEarlier = holes.contains { $0.lowerBound < lowest && $0.upperBound > previous }
        holeLater = holes.contains { $0.upperBound > highest && $0.lowerBound < next }
    }

    func immutableView() -> MessageHistoryView {
        let visible = window.visible
        let messages = visible.entries.map(\.message)
        var entries: [MessageHistoryEntry] = []
        entries.reserveCapacity(messages.count)
        var position = 0
        while position < messages.count {
            // An album: consecutive messages with the same grouping key.
            var end = position + 1
            if let key = messages[position].groupingKey {
                while end < messages.count && messages[end].groupingKey == key { end += 1 }
            }
            let group = end - position > 1 ? MessageGroupInfo(stableId: messages[position].stableId) : nil
            for message in messages[position..<end] {
                entries.append(MessageHistoryEntry(message: message, isRead: isRead(message), groupInfo: group))
            }
            position = end
        }
        return MessageHistoryView(
            peerId: peerId, tag: tag, anchor: anchor, count: count, entries: entries, earlierId: visible.lowerNeighbor,
            laterId: visible.upperNeighbor, holeEarlier: holeEarlier, holeLater: holeLater, readState: readState)
    }

    private func isRead(_ message: Message) -> Bool {
        guard let state = readState?.states[message.id.namespace] else { return false }
        return message.flags.contains(.incoming)
            ? message.id.id <= state.maxIncomingReadId : message.id.id <= state.maxOutgoingReadId
    }
}
