/// One generated message: the same data for Postbox, raw SQLCipher and GRDB.
public struct BenchMessage: Sendable {
    public let peer: Int64
    public let id: Int32
    public let timestamp: Int32
    public let author: Int64
    public let text: String

    /// A message with every field given (the live-view data set builds its own layout).
    public init(peer: Int64, id: Int32, timestamp: Int32, author: Int64, text: String) {
        self.peer = peer
        self.id = id
        self.timestamp = timestamp
        self.author = author
        self.text = text
    }
}

/// Deterministic message text from a vocabulary of Latin and Vietnamese-looking words (with diacritics), so the
/// full-text workloads exercise `remove_diacritics 2`.
public enum BenchData {
    static let syllables = [
        "pho", "phở", "bo", "bò", "anh", "ánh", "sang", "sáng", "nguyen", "nguyễn", "van", "văn", "ca", "cá", "mi",
        "mì", "tra", "trà", "com", "cơm", "ban", "bạn", "la", "lá", "tin", "nhan", "nhắn", "gui", "gửi", "hen",
        "hẹn", "gap", "gặp", "ngay", "ngày", "mai", "toi", "tối", "nay", "xem", "phim", "choi", "chơi", "di", "đi",
        "ve", "về", "nha", "nhà", "ma", "tu", "kha", "re", "lo", "zu", "qi", "wen", "da", "ko", "sy",
    ]

    /// Words built from two syllables (≈ 3,600 distinct words).
    public static let vocabulary: [String] = {
        var words: [String] = []
        for a in syllables { for b in syllables { words.append(a + b) } }
        return words
    }()

    /// Messages `start..<start + count` of the data set: message `i` is in chat `i % chats` with id
    /// `i / chats + 1` and 6–10 words chosen by a hash of `i`, so any slice is generated on its own.
    public static func messages(from start: Int = 0, count: Int, chats: Int = 1000) -> [BenchMessage] {
        var result: [BenchMessage] = []
        result.reserveCapacity(count)
        for i in start..<start + count {
            var state = UInt64(i) &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491_4F6C_DD1D
            func next() -> UInt64 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return state >> 33
            }
            let words = 6 + Int(next() % 5)
            var text = ""
            for w in 0..<words {
                if w > 0 { text += " " }
                text += vocabulary[Int(next() % UInt64(vocabulary.count))]
            }
            let peer = Int64(i % chats) + 1
            result.append(
                BenchMessage(
                    peer: peer, id: Int32(i / chats) + 1, timestamp: 1_700_000_000 + Int32(i), author: peer, text: text)
            )
        }
        return result
    }

    /// Query words (without diacritics) for the search workload.
    public static func queries(_ count: Int) -> [String] {
        (0..<count).map { i in
            let word = vocabulary[(i * 7919) % vocabulary.count]
            return String(word.unicodeScalars.filter { $0.isASCII }.map(Character.init))
        }.filter { $0.count >= 4 }
    }
}
