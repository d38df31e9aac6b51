import SecretChats
import Testing

@Suite struct VisualizationTests {
    @Test func bothSidesSeeTheSamePictureAndEmoji() throws {
        let (alice, bob) = try establishedPair(seed: 5)
        let a = SecretChatKeyVisualization(key: alice.key, originatorGA: alice.originatorGA)
        let b = SecretChatKeyVisualization(key: bob.key, originatorGA: bob.originatorGA)
        #expect(a == b)
        #expect(a.emoji.count == 4 && a.emoji == b.emoji)
        #expect(a.colorIndexes.count == 144 && a.textRows.count == 12)
        #expect(a.hexLines.count == 4)
        let (other, _) = try establishedPair(seed: 6)
        #expect(SecretChatKeyVisualization(key: other.key, originatorGA: other.originatorGA).colorIndexes != a.colorIndexes)
    }

    @Test func cellsTakeTwoBitsLeastSignificantFirst() throws {
        let (alice, _) = try establishedPair(seed: 5)
        let v = SecretChatKeyVisualization(key: alice.key, originatorGA: alice.originatorGA)
        let first = v.keySignature[0]
        #expect(Array(v.colorIndexes[0..<4]) == [Int(first & 3), Int(first >> 2 & 3), Int(first >> 4 & 3), Int(first >> 6)])
        let last = v.keySignature[35]
        #expect(v.colorIndexes[143] == Int(last >> 6))
        let pixels = v.rgba(side: 120)
        #expect(pixels.count == 120 * 120 * 4)
        let rgb = SecretChatKeyVisualization.palette[v.colorIndexes[0]]
        #expect(pixels[0] == UInt8(rgb >> 16 & 0xff) && pixels[2] == UInt8(rgb & 0xff))
    }
}
