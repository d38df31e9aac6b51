import ValueBox

/// A change to the holes of one chat namespace and space, as recorded for views.
public enum MessageHistoryHoleOperation: Equatable, Sendable {
    case insert(ClosedRange<Int32>)
    case remove(ClosedRange<Int32>)
}

/// Table 56: closed ranges of message ids not yet fetched, under `peerId ‖ namespace ‖ space ‖ upper id` with the
/// lower id as value (Telegram-iOS Postbox `MessageHistoryHoleIndexTable`). Stored ranges never overlap or touch.
final class HoleIndexTable: Table {
    private func prefix(_ peerId: PeerId, _ namespace: Int32, _ space: MessageHistoryHoleSpace) -> ValueBoxKey {
        var key = ValueBoxKey(length: 16)
        key.setInt64(0, value: peerId.toInt64())
        key.setInt32(8, value: namespace)
        key.setUInt32(12, value: space.rawValue)
        return key
    }

    private func key(_ prefix: ValueBoxKey, _ upper: Int32) -> ValueBoxKey {
        var key = prefix + ValueBoxKey(length: 4)
        // Ids are stored offset by 2^31 so that byte order matches signed order.
        key.setUInt32(16, value: UInt32(bitPattern: upper) ^ 0x8000_0000)
        return key
    }

    /// Every hole, ascending.
    func holes(_ peerId: PeerId, _ namespace: Int32, _ space: MessageHistoryHoleSpace) throws -> [ClosedRange<Int32>] {
        let prefix = prefix(peerId, namespace, space)
        var result: [ClosedRange<Int32>] = []
        try valueBox.range(table, start: prefix, end: prefix.successor) { key, value in
            guard value.count == 4 else { return true }
            let upper = Int32(bitPattern: key.getUInt32(16) ^ 0x8000_0000)
            let lower = ValueBoxKey(value).getInt32(0)
            if lower <= upper { result.append(lower...upper) }
            return true
        }
        return result
    }

    private func store(_ prefix: ValueBoxKey, _ range: ClosedRange<Int32>) throws {
        var value = ValueBoxKey(length: 4)
        value.setInt32(0, value: range.lowerBound)
        try valueBox.set(table, key: key(prefix, range.upperBound), value: value.bytes)
    }

    /// Adds `range`, merged with every hole it overlaps or touches; returns the operations for views.
    func add(
        _ peerId: PeerId, _ namespace: Int32, _ space: MessageHistoryHoleSpace, _ range: ClosedRange<Int32>
    ) throws -> [MessageHistoryHoleOperation] {
        let prefix = prefix(peerId, namespace, space)
        var lower = range.lowerBound
        var upper = range.upperBound
        var operations: [MessageHistoryHoleOperation] = []
        for hole in try holes(peerId, namespace, space)
        where Int64(hole.upperBound) + 1 >= Int64(range.lowerBound)
            && Int64(hole.lowerBound) - 1 <= Int64(range.upperBound)
        {
            try valueBox.remove(table, key: key(prefix, hole.upperBound))
            operations.append(.remove(hole))
            lower = min(lower, hole.lowerBound)
            upper = max(upper, hole.upperBound)
        }
        try store(prefix, lower...upper)
        operations.append(.insert(lower...upper))
        return operations
    }

    /// Removes `range` from the holes, splitting a hole that extends past it; returns the operations for views.
    func remove(
        _ peerId: PeerId, _ namespace: Int32, _ space: MessageHistoryHoleSpace, _ range: ClosedRange<Int32>
    ) throws -> [MessageHistoryHoleOperation] {
        let prefix = prefix(peerId, namespace, space)
        var operations: [MessageHistoryHoleOperation] = []
        for hole in try holes(peerId, namespace, space) where hole.overlaps(range) {
            try valueBox.remove(table, key: key(prefix, hole.upperBound))
            operations.append(.remove(hole))
            if hole.lowerBound < range.lowerBound {
                let left = hole.lowerBound...(range.lowerBound - 1)
                try store(prefix, left)
                operations.append(.insert(left))
            }
            if hole.upperBound > range.upperBound {
                let right = (range.upperBound + 1)...hole.upperBound
                try store(prefix, right)
                operations.append(.insert(right))
            }
        }
        return operations
    }
}
