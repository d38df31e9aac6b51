import MergeLists

/// The peer: the standard library's `CollectionDifference` (Myers) turned into the same ListView changes —
/// `right.difference(from: left)` by stable id gives deletes and inserts (a moved item is a removal and an
/// insertion of the same id, linked for `previousIndex` through a dictionary), then a walk over the kept items
/// compares their content for the updates.
enum DifferencePeer {
    static func merge(left: [ChatEntry], right: [ChatEntry]) -> ListMergeResult<ChatEntry> {
        let difference = right.difference(from: left) { $0.stableId == $1.stableId }
        var deleteIndices: [Int] = []
        var insertOffsets: [Int] = []
        for change in difference {
            switch change {
            case .remove(let offset, _, _): deleteIndices.append(offset)
            case .insert(let offset, _, _): insertOffsets.append(offset)
            }
        }
        var removedById: [Int64: Int] = [:]
        for index in deleteIndices { removedById[left[index].stableId] = index }
        let inserts = insertOffsets.map {
            ListMergeResult<ChatEntry>.Insert(
                index: $0, item: right[$0], previousIndex: removedById[right[$0].stableId])
        }
        // Kept items pair up in order once the removed (left) and inserted (right) offsets are skipped.
        var updates: [ListMergeResult<ChatEntry>.Update] = []
        var i = 0
        var j = 0
        var d = 0
        var n = 0
        while i < left.count && j < right.count {
            if d < deleteIndices.count && deleteIndices[d] == i {
                d += 1
                i += 1
            } else if n < insertOffsets.count && insertOffsets[n] == j {
                n += 1
                j += 1
            } else {
                if left[i] != right[j] { updates.append(.init(index: j, item: right[j], previousIndex: i)) }
                i += 1
                j += 1
            }
        }
        return ListMergeResult(deleteIndices: deleteIndices, inserts: inserts, updates: updates)
    }
}
