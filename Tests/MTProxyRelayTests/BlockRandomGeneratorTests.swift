import Testing

@testable import MTProxyRelay

/// The proxy's block-drawn generator: every word handed out once across refills, none of them a fixed pattern.
struct BlockRandomGeneratorTests {
    @Test func wordsAcrossRefillsAreAllDifferent() {
        var generator = BlockRandomGenerator(capacity: 4)
        let words = (0..<1_000).map { _ in generator.next() }
        // 1,000 random 64-bit words collide with probability ~3e-14; a block served twice would repeat 4 at once.
        #expect(Set(words).count == words.count)
        #expect(!words.contains(0))
    }

    @Test func bytesDrawnThroughItSpreadOverTheirRange() {
        var generator = BlockRandomGenerator()
        var seen = Set<UInt8>()
        for _ in 0..<4_096 { seen.insert(UInt8.random(in: 0...255, using: &generator)) }
        // 4,096 uniform bytes miss a given value with probability (255/256)^4096 ≈ 1e-7.
        #expect(seen.count == 256)
    }
}
