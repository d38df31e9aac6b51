/// Random bytes from `SecureRandom` drawn in blocks and handed out in small pieces, each byte once: for callers that
/// need a few random bytes very often (an MTProto packet's 12–28 bytes of padding), where one `RAND_bytes` call per
/// piece costs more than the rest of the packet's encryption (OpenSSL 3's DRBG takes its lock and runs AES-CTR per
/// call). A value: each owner (one session) keeps its own; requests larger than half a block bypass it.
public struct SecureRandomPool: Sendable {
    private var block: [UInt8]
    private var next: Int

    /// A pool that refills `capacity` bytes at a time (the first refill happens on first use).
    public init(capacity: Int = 4096) {
        block = []
        next = 0
        self.capacity = max(64, capacity)
    }

    public let capacity: Int

    /// `count` random bytes no caller got before.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        guard count <= capacity / 2 else { return SecureRandom.bytes(count) }
        if block.count - next < count {
            block = SecureRandom.bytes(capacity)
            next = 0
        }
        defer { next += count }
        return Array(block[next..<(next + count)])
    }
}
