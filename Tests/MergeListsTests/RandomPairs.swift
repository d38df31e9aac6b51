import MergeLists
import TestVectors

/// A random left list and a right list made from it by deletes, inserts, moves (new sort keys) and content updates;
/// both sorted ascending with unique ids, ties between equal keys in random order.
struct RandomPair: CustomStringConvertible {
    let seed: UInt64
    let left: [Entry]
    let right: [Entry]

    /// The pair that `seed` makes (the same on every run, so a failure's seed reproduces it).
    init(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        self.seed = seed
        // Mostly short lists; sometimes long ones. A small key range makes many ties, a large one almost none.
        let count = random.int(0..<8) == 0 ? random.int(0..<200) : random.int(0..<40)
        let keyRange = [4, 30, 1_000_000][random.int(0..<3)]
        var nextId = 0
        var left: [Entry] = []
        for _ in 0..<count {
            left.append(Entry(id: nextId, key: random.int(0..<keyRange), content: random.int(0..<4)))
            nextId += 1
        }
        // Each change kind has its own rate for this pair, from none to most items.
        let deleteRate = random.int(0..<5) * 10
        let moveRate = random.int(0..<5) * 10
        let updateRate = random.int(0..<5) * 10
        var right: [Entry] = []
        for var item in left {
            if random.int(0..<100) < deleteRate { continue }
            if random.int(0..<100) < moveRate { item.key = random.int(0..<keyRange) }
            if random.int(0..<100) < updateRate { item.content += 1 + random.int(0..<3) }
            right.append(item)
        }
        let insertCount = random.int(0..<4) == 0 ? 0 : random.int(0..<(count / 2 + 3))
        for _ in 0..<insertCount {
            right.append(Entry(id: nextId, key: random.int(0..<keyRange), content: random.int(0..<4)))
            nextId += 1
        }
        self.left = Self.sortedWithRandomTies(left, &random)
        self.right = Self.sortedWithRandomTies(right, &random)
    }

    /// `items` sorted by key, items with equal keys in a random order.
    static func sortedWithRandomTies(_ items: [Entry], _ random: inout SeededGenerator) -> [Entry] {
        // Typed step by step: as one chain of closures this took the type checker 16 s.
        let tagged: [(entry: Entry, tie: UInt64)] = items.map { entry in (entry, random.next()) }
        let sorted = tagged.sorted { (a, b) -> Bool in
            a.entry.key != b.entry.key ? a.entry.key < b.entry.key : a.tie < b.tie
        }
        return sorted.map(\.entry)
    }

    var description: String { "seed \(seed): left \(left), right \(right)" }
}
