import CryptoUtils
import Testing

/// `SecureRandomPool`: pieces of a block, each byte handed out once, refilled when short, large requests direct.
@Suite struct SecureRandomPoolTests {
    @Test func piecesNeverRepeatAndTheBlockIsRefilled() {
        var pool = SecureRandomPool(capacity: 256)
        // 40 pieces of 28 bytes: more than four blocks, so the pool refills several times.
        let pieces = (0..<40).map { _ in pool.bytes(28) }
        #expect(pieces.allSatisfy { $0.count == 28 })
        // 28 random bytes repeat with negligible probability: a repeat means a byte range was handed out twice.
        #expect(Set(pieces).count == pieces.count)
        #expect(pieces.joined().contains { $0 != 0 })
        #expect(pool.bytes(0).isEmpty)
        #expect(pool.bytes(1000).count == 1000, "a request over half a block goes straight to SecureRandom")
    }
}
