import SyncCore
import Testing
import TextLayout

/// Random texts, entities, widths and sizes: nothing traps, and the layout keeps its invariants.
@Suite struct TextLayoutRandomInputTests {
    /// SplitMix64, so a failure repeats.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces = [
        "Hello", " ", "world", "Tiếng", "Việt", "e\u{301}\u{323}", "مرحبا", "بالعالم", "שלום", "我能吞下", "玻璃。",
        "한국어", "👨‍👩‍👧‍👦", "🇺🇦", "👍🏽", "1️⃣", "\n", "\r\n", "\u{0}", "\t", "\u{200B}", "\u{200F}", "\u{FEFF}",
        "x\u{300}\u{301}\u{302}\u{303}", "https://t.me/x", "@alice", "#tag", "    ",
    ]
    static let types: [MessageTextEntityType] = [
        .bold, .italic, .code, .pre(language: nil), .strikethrough, .underline, .url, .mention, .hashtag,
        .textUrl(url: "https://t.me"), .spoiler, .blockQuote(isCollapsed: false), .customEmoji(fileId: 1), .unknown,
    ]
    static let sizes: [Double] = [17, 0, -3, 1, 0.5, 1e9, .infinity, -.infinity, .nan, 13.5]

    @Test func randomInputsKeepTheInvariants() {
        var generator = Generator(state: 20_261_125)
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0...12, using: &generator))
                .map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            let count = text.utf16.count
            let entities = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                let lower = Int.random(in: -10...(count + 10), using: &generator)
                let upper = lower + Int.random(in: 0...(count + 10), using: &generator)
                return MessageTextEntity(range: lower..<upper, type: Self.types.randomElement(using: &generator)!)
            }
            let width = Int.random(in: -5...400, using: &generator)
            let size = Self.sizes.randomElement(using: &generator)!
            let laid = TextLayout.layout(text, entities: entities, width: width, fontSize: size)
            #expect(laid.width == max(width, 1))
            #expect(laid.lines.first?.range.lowerBound == 0)
            #expect(laid.lines.last?.range.upperBound == count)
            for (a, b) in zip(laid.lines, laid.lines.dropFirst()) { #expect(a.range.upperBound == b.range.lowerBound) }
            var offset = 0
            var characters: [Range<Int>] = []
            for character in text {
                characters.append(offset..<(offset + character.utf16.count))
                offset += character.utf16.count
            }
            #expect(laid.clusters.map(\.range) == characters, "\(text.unicodeScalars.map(\.value))")
            #expect(laid.clusters.allSatisfy { $0.x.isFinite && $0.advance.isFinite })
            for styled in laid.styledEntities {
                #expect(styled.range.lowerBound >= 0 && styled.range.upperBound <= count && !styled.range.isEmpty)
            }
        }
    }
}
