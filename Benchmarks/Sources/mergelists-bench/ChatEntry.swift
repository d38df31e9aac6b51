import MergeLists
import TestVectors

/// A chat history entry as the list sees it: ordered by (timestamp, id) like Telegram's `MessageIndex`, identified
/// by the message id, equal when every field is.
struct ChatEntry: MergeableItem {
    var id: Int64
    var timestamp: Int32
    var text: String
    var revision: Int

    var stableId: Int64 { id }

    static func < (a: ChatEntry, b: ChatEntry) -> Bool {
        a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.id < b.id
    }
}

/// The kinds of change a history view sees between two emissions.
enum Change: CaseIterable {
    case delete, insert, move, update, append
}

/// Pairs of 1,000-entry histories: the left one, and the right one after `changes` random changes of `kinds`.
struct HistoryPairs {
    let pairs: [(left: [ChatEntry], right: [ChatEntry])]

    init(count: Int, size: Int = 1_000, changes: ClosedRange<Int>, kinds: [Change], seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var pairs: [(left: [ChatEntry], right: [ChatEntry])] = []
        for _ in 0..<count {
            var left: [ChatEntry] = []
            for n in 0..<size {
                let timestamp = Int32(1_700_000_000 + n * 7)
                left.append(ChatEntry(id: Int64(n + 1), timestamp: timestamp, text: "message \(n)", revision: 0))
            }
            var right = left
            var nextId = Int64(size + 1)
            for _ in 0..<Int.random(in: changes, using: &random) {
                let index = random.int(0..<right.count)
                switch kinds[random.int(0..<kinds.count)] {
                case .delete: right.remove(at: index)
                case .update: right[index].revision += 1
                case .move: right[index].timestamp += Int32(random.int(8..<2_000))
                case .insert:
                    let timestamp = right[index].timestamp - Int32(random.int(1..<7))
                    right.append(ChatEntry(id: nextId, timestamp: timestamp, text: "inserted", revision: 0))
                    nextId += 1
                case .append:
                    let timestamp = right.map { (entry: ChatEntry) in entry.timestamp }.max()! + 3
                    right.append(ChatEntry(id: nextId, timestamp: timestamp, text: "new", revision: 0))
                    nextId += 1
                }
            }
            right.sort(by: <)
            pairs.append((left, right))
        }
        self.pairs = pairs
    }
}
