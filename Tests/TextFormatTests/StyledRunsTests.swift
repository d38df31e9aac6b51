import SyncCore
import TestVectors
import Testing

@testable import TextFormat

/// Styled runs: a known example, and a property test — random texts with astral characters and random overlapping
/// entities give runs that cover the text in order, never two equal neighbours, and at every UTF-16 position exactly
/// the styles of the entities covering it.
@Suite struct StyledRunsTests {
    @Test func aKnownMessage() {
        let (text, entities) = MarkdownParser.parse("**bold __both__** ||hidden|| `code` [link](https://t.me/x) @user")
        let runs = StyledRuns.runs(text: text, entities: entities + TextEntityFinder.entities(in: text))
        #expect(runs.map(\.text) == ["bold ", "both", " ", "hidden", " ", "code", " ", "link", " ", "@user"])
        #expect(runs[0].attributes.styles == [.bold])
        #expect(runs[1].attributes.styles == [.bold, .italic])
        #expect(runs[3].attributes.styles == [.spoiler])
        #expect(runs[5].attributes.styles == [.monospace])
        #expect(runs[7].attributes.link == .url("https://t.me/x"))
        #expect(runs[9].attributes.link == .mention("user"))
    }

    @Test func runsCoverTheTextWithTheCoveringStyles() {
        var generator = SeededGenerator(seed: 2026)
        let pieces = ["a", "b", " ", "phở", "👍🏽", "🇻🇳", "日", "م", "\n"]
        let kinds: [MessageTextEntityType] = [.bold, .italic, .underline, .strikethrough, .spoiler, .code, .blockQuote(isCollapsed: false)]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let length = text.utf16.count
            let entities = (0..<Int.random(in: 0...5, using: &generator)).compactMap { _ -> MessageTextEntity? in
                guard length > 0 else { return nil }
                let start = Int.random(in: 0..<length, using: &generator)
                let end = Int.random(in: (start + 1)...length, using: &generator)
                return MessageTextEntity(range: start..<end, type: kinds.randomElement(using: &generator)!)
            }
            let runs = StyledRuns.runs(text: text, entities: entities)
            #expect(runs.map(\.text).joined() == text)
            #expect(runs.first?.range.lowerBound ?? 0 == 0 && (runs.last?.range.upperBound ?? 0) == length)
            for (left, right) in zip(runs, runs.dropFirst()) {
                #expect(left.range.upperBound == right.range.lowerBound && left.attributes != right.attributes)
            }
            for run in runs {
                for position in run.range {
                    var expected = TextRunAttributes()
                    for entity in entities.compactMap({ StyledRuns.normalized($0, units: Array(text.utf16)) }) where entity.range.contains(position) {
                        StyledRuns.apply(entity, to: &expected, units: Array(text.utf16))
                    }
                    #expect(expected.styles == run.attributes.styles)
                }
            }
        }
    }
}
