import Hashing
import Testing

/// Published MurmurHash3_x86_32 answers (Appleby's SMHasher; the same values `mmh3` prints), plus two seeded with
/// Telegram's seed.
@Suite struct MurMurHash32Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let input: String
        let seed: UInt32
        let expected: UInt32
        var testDescription: String { "\"\(input)\" seed \(seed)" }
    }

    static let vectors: [Vector] = [
        Vector(input: "", seed: 0, expected: 0),
        Vector(input: "", seed: 1, expected: 0x514E_28B7),
        Vector(input: "", seed: 0xFFFF_FFFF, expected: 0x81F1_6F39),
        Vector(input: "\0\0\0\0", seed: 0, expected: 0x2362_F9DE),
        Vector(input: "aaaa", seed: 0x9747_B28C, expected: 0x5A97_808A),
        Vector(input: "abc", seed: 0, expected: 0xB3DD_93FA),
        Vector(input: "Hello, world!", seed: 0x9747_B28C, expected: 0x2488_4CBA),
        Vector(input: "The quick brown fox jumps over the lazy dog", seed: 0x9747_B28C, expected: 0x2FA8_26CD),
        Vector(input: "Postbox", seed: MurMurHash32.telegramSeed, expected: 0x60C4_A810),
        Vector(input: "TelegramMediaImage", seed: MurMurHash32.telegramSeed, expected: 0x8BAE_2094),
    ]

    @Test(arguments: vectors)
    func knownAnswer(_ vector: Vector) {
        #expect(MurMurHash32.hash(Array(vector.input.utf8), seed: vector.seed) == vector.expected)
    }

    @Test func stringHashIsSignedLikeTelegram() {
        #expect(MurMurHash32.hashString("TelegramMediaImage") == -1_951_522_668)
        #expect(MurMurHash32.hashString("Postbox") == 1_623_500_816)
    }

    @Test func everyTailLengthDiffers() {
        // Lengths 0...8 cover each tail case twice; distinct inputs must not collide here.
        let hashes = (0...8).map { MurMurHash32.hash(Array(repeating: 0x61, count: $0), seed: 0) }
        #expect(Set(hashes).count == hashes.count)
    }
}
