/// Holes: id ranges of a chat known to exist on the server but not stored (Telegram-iOS Postbox hole index).
extension Transaction {
    /// Records a hole, merging with holes it touches.
    public func addHole(
        peerId: PeerId, namespace: MessageId.Namespace, space: MessageHistoryHoleSpace = .everywhere,
        range: ClosedRange<Int32>
    ) throws {
        try checkWritable()
        let operations = try tables.holes.add(peerId, namespace, space, range)
        self.operations.holeOperations[
            HoleOperationKey(peerId: peerId, namespace: namespace, space: space), default: []
        ]
        .append(contentsOf: operations)
    }

    /// Removes a range from the holes (after fetching it).
    public func removeHole(
        peerId: PeerId, namespace: MessageId.Namespace,
        space: MessageHistoryHoleSpace = .everywhere, range: ClosedRange<Int32>
    ) throws {
        try checkWritable()
        let operations = try tables.holes.remove(peerId, namespace, space, range)
        guard !operations.isEmpty else { return }
        self.operations.holeOperations[
            HoleOperationKey(peerId: peerId, namespace: namespace, space: space), default: []
        ]
        .append(contentsOf: operations)
    }

    /// The holes of a chat namespace and space, ascending.
    public func getHoles(
        peerId: PeerId, namespace: MessageId.Namespace,
        space: MessageHistoryHoleSpace = .everywhere
    ) throws -> [ClosedRange<Int32>] {
        try tables.holes.holes(peerId, namespace, space)
    }
}
