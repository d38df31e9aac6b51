import CryptoUtils

/// A `RandomNumberGenerator` over `SecureRandom` drawn in blocks: for the proxy's openings, which take thousands of
/// random bytes one at a time (a fake-TLS answer's 1–4 KB "certificate" is written byte by byte, each byte one
/// `next()`). `SystemRandomNumberGenerator` makes one `getrandom` system call per `next()`, which cost a proxy
/// answering fake-TLS clients over a millisecond of CPU per connection (BENCHMARKS.md, mtproxy-bench); here one
/// `RAND_bytes` call fills `capacity` words. A value: each opening keeps its own, and no word is handed out twice.
struct BlockRandomGenerator: RandomNumberGenerator {
    private var block: [UInt64] = []
    private var taken = 0
    /// Words drawn per refill.
    let capacity: Int

    init(capacity: Int = 512) {
        self.capacity = max(1, capacity)
    }

    mutating func next() -> UInt64 {
        if taken == block.count {
            let bytes = SecureRandom.bytes(capacity * 8)
            block = bytes.withUnsafeBytes { raw in
                (0..<capacity).map { raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self) }
            }
            taken = 0
        }
        defer { taken += 1 }
        return block[taken]
    }
}
