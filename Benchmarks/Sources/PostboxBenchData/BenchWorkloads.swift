/// The inputs both sides of postbox-bench's comparisons derive alike (Postbox in postbox-bench, GRDB in
/// postbox-grdb-bench), and the checksum each side returns to show it found the same messages.
extension BenchData {
    /// The 10,000 messages the point-get workload looks up (the first 1,000 are the range workload's anchors).
    public static func picks(_ messages: [BenchMessage], count: Int = 10_000) -> [BenchMessage] {
        var state: UInt64 = 99
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1
            return messages[Int(state >> 33) % messages.count]
        }
    }

    /// Every distinct query the vocabulary gives (ASCII letters of a word, at least four), except the hot set
    /// `queries(200)`, shuffled with seed 2: the pool the fresh query sets are cut from.
    static let freshPool: [String] = {
        let hot = Set(queries(200))
        var seen = Set<String>()
        var pool: [String] = []
        for word in vocabulary {
            let query = String(word.unicodeScalars.filter { $0.isASCII }.map(Character.init))
            if query.count >= 4, !hot.contains(query), seen.insert(query).inserted { pool.append(query) }
        }
        var state: UInt64 = 2
        for i in stride(from: pool.count - 1, to: 0, by: -1) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            pool.swapAt(i, Int(state >> 33) % (i + 1))
        }
        return pool
    }()

    /// How many disjoint fresh sets of `size` queries there are.
    public static func freshSetCount(size: Int) -> Int { freshPool.count / size }

    /// Fresh query set `set` (0, 1, …): `size` queries from the same vocabulary that are in no other set and not in
    /// the hot set, so a run over it times queries the database has never answered.
    public static func freshQueries(set: Int, size: Int) -> [String] {
        precondition((set + 1) * size <= freshPool.count, "only \(freshPool.count) fresh queries")
        return Array(freshPool[set * size..<(set + 1) * size])
    }
}

/// What a side found, independent of order: how many messages, and a sum of a hash of each one's chat, id and text
/// length. Two sides that found the same messages give the same text.
public struct FoundChecksum: Sendable {
    public private(set) var count = 0
    private var sum: UInt64 = 0

    public init() {}

    /// Adds one message found (`textLength`: its text's UTF-8 bytes, or 0 where the side does not read the text).
    public mutating func add(peer: Int64, id: Int32, textLength: Int = 0) {
        var x =
            UInt64(bitPattern: peer) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(UInt32(bitPattern: id)) << 20
            ^ UInt64(textLength) << 52
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        sum &+= x ^ (x >> 31)
        count += 1
    }

    /// Adds a count that is not a message (a query's number of hits), so per-item counts are compared too.
    public mutating func add(count value: Int) {
        add(peer: Int64(value), id: Int32(truncatingIfNeeded: count))
    }

    /// "found N, checksum X".
    public var text: String { "found \(count), checksum \(String(sum, radix: 16))" }
}
