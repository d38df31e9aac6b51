import SyncCore
import Testing
import TextLayout

/// Texts in the scripts a chat shows, each long enough to wrap at the narrow widths.
enum Samples {
    static let latin = "The quick brown fox jumps over the lazy dog while the five boxing wizards jump quickly."
    static let vietnamese =
        "Tiếng Việt có dấu: những người bạn cùng nhau đi học mỗi sáng trên con đường làng quen thuộc."
    static let arabic = "مرحبا بالعالم، هذه رسالة تجريبية مع Telegram في وسطها وبعض الكلمات الأخرى بعدها."
    static let cjk = "我能吞下玻璃而不伤身体。日本語の文章も混ざっています。한국어 문장도 있습니다。"
    static let family = "👨‍👩‍👧‍👦"
    static let emoji = "Family \(family) and flags 🇺🇦🇯🇵 and a thumbs up 👍🏽 and more emoji 🎉🎉🎉 here."
    static let all = [latin, vietnamese, arabic, cjk, emoji]
    static let widths = [80, 200, 1000]
}

/// The UTF-16 offset of the first occurrence of `needle` in `text`.
func utf16Offset(of needle: String, in text: String) throws -> Int {
    let range = try #require(text.firstRange(of: needle))
    return text.utf16.distance(from: text.startIndex, to: range.lowerBound)
}

/// Invariants every layout keeps, whatever the script and width.
func checkInvariants(_ text: String, _ laid: LaidOutText, width: Int) {
    // Lines meet and cover the text.
    #expect(laid.lines.first?.range.lowerBound == 0)
    #expect(laid.lines.last?.range.upperBound == text.utf16.count)
    for (a, b) in zip(laid.lines, laid.lines.dropFirst()) { #expect(a.range.upperBound == b.range.lowerBound) }
    // Every grapheme lies in exactly one line: its whole range inside the line its start names, in no other.
    // Clusters are the Swift Characters, exactly.
    var characters: [Range<Int>] = []
    var offset = 0
    for character in text {
        characters.append(offset..<(offset + character.utf16.count))
        offset += character.utf16.count
    }
    #expect(laid.clusters.map(\.range) == characters)
    for cluster in laid.clusters {
        let holding = laid.lines.indices.filter { laid.lines[$0].range.overlaps(cluster.range) }
        #expect(holding == [cluster.line], "cluster \(cluster.range) of \(text.prefix(12))… lies in lines \(holding)")
        #expect(laid.lines[cluster.line].range.contains(cluster.range.lowerBound))
        #expect(laid.lines[cluster.line].range.upperBound >= cluster.range.upperBound)
    }
    // No line wider than the width, unless it holds a single cluster that cannot break.
    for (index, line) in laid.lines.enumerated() {
        let clusters = laid.clusters.filter { $0.line == index }.count
        if clusters > 1 {
            #expect(line.rect.width <= Double(width) + 0.5, "line \(index) is \(line.rect.width) px at width \(width)")
        }
        #expect(line.rect.x >= -0.5)
    }
    // Lines go down, each baseline inside its line.
    for (a, b) in zip(laid.lines, laid.lines.dropFirst()) { #expect(b.rect.y >= a.rect.maxY - 0.5) }
    for line in laid.lines { #expect(line.baseline > line.rect.y && line.baseline < line.rect.maxY) }
    // Positions increase within left-to-right lines.
    for (index, line) in laid.lines.enumerated()
    where !line.isRightToLeft && line.runs.allSatisfy({ !$0.isRightToLeft }) {
        let xs = laid.clusters.filter { $0.line == index }.map(\.x)
        for (a, b) in zip(xs, xs.dropFirst()) {
            #expect(b >= a, "x goes back in line \(index) of \(text.prefix(12))…")
        }
    }
    // Within a run, each cluster's leading edge plus its advance is the next cluster's leading edge.
    let runs = laid.lines.flatMap(\.runs)
    func sameRun(_ a: LaidOutText.Cluster, _ b: LaidOutText.Cluster) -> Bool {
        a.line == b.line
            && runs.contains { $0.range.contains(a.range.lowerBound) && $0.range.contains(b.range.lowerBound) }
    }
    for (a, b) in zip(laid.clusters, laid.clusters.dropFirst()) where sameRun(a, b) {
        #expect(abs(a.x + a.advance - b.x) < 0.01, "clusters \(a.range) and \(b.range) of \(text.prefix(12))…")
    }
    #expect(laid.bounds.height > 0)
}

@Suite struct TextLayoutScriptTests {
    @Test(arguments: Samples.all)
    func linesAtEachWidth(text: String) {
        var counts: [Int] = []
        for width in Samples.widths {
            let laid = TextLayout.layout(text, width: width)
            checkInvariants(text, laid, width: width)
            counts.append(laid.lineCount)
        }
        // Narrower widths give more lines; the widest holds each sample on one or two lines.
        #expect(counts[0] > counts[1], "\(counts)")
        #expect(counts[1] > counts[2], "\(counts)")
        #expect(counts[2] <= 2, "\(counts)")
    }

    @Test func latinIsNotoSansLeftToRight() throws {
        let laid = TextLayout.layout(Samples.latin, width: 1000)
        let line = try #require(laid.lines.first)
        #expect(!line.isRightToLeft)
        #expect(line.runs.map(\.fontFamily) == ["Noto Sans"])
        // The first cluster starts at the left edge; the last line is no wider than the layout.
        #expect(abs(laid.clusters[0].x) < 0.01)
        #expect(laid.bounds.width <= 1000)
    }

    @Test func vietnameseStacksDiacriticsInOneCluster() throws {
        // "ế" as e + circumflex + acute (decomposed) is one grapheme and one cluster position, as the precomposed one.
        let decomposed = "Ti\u{65}\u{302}\u{301}ng Vi\u{65}\u{323}\u{302}t"
        let precomposed = "Tiếng Việt"
        let a = TextLayout.layout(decomposed, width: 1000)
        let b = TextLayout.layout(precomposed, width: 1000)
        #expect(a.clusters.count == b.clusters.count)
        #expect(a.lines.flatMap(\.runs).map(\.fontFamily) == ["Noto Sans"])
        // Same glyphs after normalization by the font: the same advance, to a hundredth of a pixel.
        #expect(abs(a.bounds.width - b.bounds.width) < 0.01)
        let vietnamese = TextLayout.layout(Samples.vietnamese, width: 1000)
        #expect(vietnamese.lines.flatMap(\.runs).allSatisfy { $0.fontFamily == "Noto Sans" })
    }

    @Test func arabicParagraphIsRightToLeftWithLatinInside() throws {
        let width = 200
        let laid = TextLayout.layout(Samples.arabic, width: width)
        let first = try #require(laid.lines.first)
        #expect(first.isRightToLeft)
        #expect(laid.lines.allSatisfy { $0.isRightToLeft })
        // The first cluster starts at the right: its leading edge is the line's right edge, right of every other.
        let cluster = laid.clusters[0]
        #expect(cluster.advance < 0)
        #expect(abs(cluster.x - first.rect.maxX) < 0.5)
        #expect(cluster.x > Double(width) / 2)
        let firstLine = laid.clusters.filter { $0.line == 0 }
        #expect(firstLine.dropFirst().allSatisfy { $0.x < cluster.x })
        // Arabic in Noto Sans Arabic, right to left; "Telegram" in Noto Sans, left to right, inside it.
        let runs = laid.lines.flatMap(\.runs)
        #expect(runs.contains { $0.fontFamily == "Noto Sans Arabic" && $0.isRightToLeft })
        let latinStart = try utf16Offset(of: "Telegram", in: Samples.arabic)
        let latin = try #require(runs.first { $0.range.contains(latinStart) })
        #expect(latin.fontFamily == "Noto Sans" && !latin.isRightToLeft)
        // Inside the Latin word, positions increase left to right.
        let word = laid.clusters.filter { $0.range.lowerBound >= latinStart && $0.range.lowerBound < latinStart + 8 }
        #expect(word.count == 8)
        for (a, b) in zip(word, word.dropFirst()) { #expect(b.x > a.x) }
    }

    @Test func latinParagraphStaysLeftToRightWithArabicInside() throws {
        let laid = TextLayout.layout("Hello مرحبا world", width: 1000)
        #expect(laid.lines.count == 1)
        #expect(try #require(laid.lines.first).isRightToLeft == false)
        #expect(abs(laid.clusters[0].x) < 0.01)
    }

    @Test func cjkBreaksBetweenIdeographsInItsFont() {
        let laid = TextLayout.layout(Samples.cjk, width: 80)
        #expect(laid.lineCount >= 5)
        #expect(laid.lines.flatMap(\.runs).contains { $0.fontFamily.hasPrefix("Noto Sans CJK") })
        // No spaces in Chinese: lines break between ideographs and every line but the last is nearly full.
        for line in laid.lines.dropLast() { #expect(line.rect.width > 80 - 2 * 17 - 1) }
    }

    @Test func zwjFamilyIsOneClusterAndOneGlyph() throws {
        let laid = TextLayout.layout(Samples.family, width: 1000)
        #expect(laid.clusters.count == 1)
        #expect(laid.clusters[0].range == 0..<Samples.family.utf16.count)
        let runs = laid.lines.flatMap(\.runs)
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run.fontFamily == "Noto Color Emoji")
        #expect(run.glyphCount == 1)
        // Inside a longer text it stays one cluster in one emoji run of one glyph.
        let mixed = TextLayout.layout(Samples.emoji, width: 1000)
        let start = try utf16Offset(of: Samples.family, in: Samples.emoji)
        let cluster = try #require(mixed.clusters.first { $0.range.lowerBound == start })
        #expect(cluster.range.count == Samples.family.utf16.count)
        let emojiRun = try #require(mixed.lines.flatMap(\.runs).first { $0.range.contains(start) })
        #expect(emojiRun.fontFamily == "Noto Color Emoji")
        #expect(emojiRun.range == start..<(start + Samples.family.utf16.count))
        #expect(emojiRun.glyphCount == 1)
    }

    @Test func emptyAndOddInputsNeverTrap() {
        let empty = TextLayout.layout("", entities: [MessageTextEntity(range: 0..<5, type: .bold)], width: 100)
        #expect(empty.lineCount == 1)
        #expect(empty.clusters.isEmpty)
        #expect(empty.styledEntities.isEmpty)
        #expect(empty.lines[0].range == 0..<0)
        let nul = TextLayout.layout("a\u{0}b", width: 0, fontSize: .nan)
        #expect(nul.clusters.count == 3)
        #expect(nul.width == 1)
        let paragraphs = "one\ntwo\r\nthree\n"
        let laid = TextLayout.layout(paragraphs, width: 1000)
        #expect(laid.lineCount == 4)
        checkInvariants(paragraphs, laid, width: 1000)
    }

    @Test func concurrentCallsGiveTheSameResult() async {
        let expected = Samples.all.map { TextLayout.layout($0, width: 200) }
        await withTaskGroup(of: Bool.self) { group in
            for round in 0..<8 {
                group.addTask {
                    Samples.all.indices.allSatisfy { index in
                        TextLayout.layout(Samples.all[(index + round) % Samples.all.count], width: 200)
                            == expected[(index + round) % Samples.all.count]
                    }
                }
            }
            for await same in group { #expect(same) }
        }
    }
}
