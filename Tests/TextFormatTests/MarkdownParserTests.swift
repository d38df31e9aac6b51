import Foundation
import SyncCore
import TestVectors
import Testing

@testable import TextFormat

/// TextFormat's markdown parser against TDLib's `parseMarkdown` (libtdjson from python-telegram 2.0.0, offline) on
/// Tests/Fixtures/tdlib/markdown-corpus.jsonl: 612 inputs, hand-written hard cases (nesting, unclosed and doubled
/// markers, code and pre with languages, links TDLib accepts and refuses, markers inside mentions and card numbers,
/// emoji, Vietnamese, right-to-left text, control characters) and seeded mixes. The text and every entity (type,
/// offset, length, link, language) must be TDLib's.
@Suite struct MarkdownParserTests {
    static func corpus() throws -> [String] {
        let file = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/tdlib/markdown-corpus.jsonl")
        let decoder = JSONDecoder()
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true)
            .map { try decoder.decode(String.self, from: Data($0.utf8)) }
    }

    static func describe(_ entity: MessageTextEntity) -> String {
        var row = "\(TDLibOracle.name(entity.type)) \(entity.range.lowerBound) \(entity.range.count)"
        switch entity.type {
        case .textUrl(let url): row += " \(url)"
        case .pre(let language?): row += " \(language)"
        default: break
        }
        return row
    }

    @Test func everyInputGivesTDLibsTextAndEntities() throws {
        let committed = try Self.corpus()
        #expect(committed.count >= 500)
        // The committed corpus, and 3,000 more from another seed each run.
        let inputs = committed + (try TDLibOracle.generatedInputs(kind: "markdown", count: 3_000, seed: 2_026))
        let answers = try TDLibOracle.run(inputs.map { ["op": "markdown", "text": $0] })
        try #require(answers.count == inputs.count)
        var differences: [String] = []
        var compared = 0
        for (input, answer) in zip(inputs, answers) {
            let theirs = (answer.entities ?? []).map { row -> String in
                guard case .string(let name) = row[0], case .number(let offset) = row[1], case .number(let length) = row[2] else { return "?" }
                if case .string(let argument) = row[3] { return "\(name) \(offset) \(length) \(argument)" }
                return "\(name) \(offset) \(length)"
            }
            compared += theirs.count
            let (text, entities) = MarkdownParser.parse(input)
            let ours = entities.map(Self.describe)
            if text != (answer.text ?? "") || ours != theirs {
                differences.append(
                    "\(String(reflecting: input)): ours \(String(reflecting: text)) \(ours), TDLib \(String(reflecting: answer.text ?? "")) \(theirs)")
            }
        }
        #expect(compared >= 500)
        #expect(differences.isEmpty, "\(differences.count) of \(inputs.count) differ:\n\(differences.prefix(40).joined(separator: "\n"))")
    }
}

/// Back into markdown: for each parsed corpus input, TextFormat's writer gives what TDLib's `getMarkdownText` gives for
/// the same text and entities; and parsing the writer's markdown gives the text and entities back.
@Suite struct MarkdownWriterTests {
    @Test func everyParsedInputWritesAsTDLibWritesIt() throws {
        let inputs = try MarkdownParserTests.corpus()
        let parsed = inputs.map(MarkdownParser.parse)
        let requests: [[String: Any]] = parsed.map { text, entities in
            let rows: [[Any]] = entities.map { entity in
                var argument: Any = NSNull()
                switch entity.type {
                case .textUrl(let url): argument = url
                case .pre(let language?): argument = language
                default: break
                }
                return [TDLibOracle.name(entity.type), entity.range.lowerBound, entity.range.count, argument]
            }
            return ["op": "markdown_text", "text": text, "entities": rows]
        }
        let answers = try TDLibOracle.run(requests)
        try #require(answers.count == inputs.count)
        var differences: [String] = []
        var written = 0
        for ((text, entities), answer) in zip(parsed, answers) {
            let (markdown, kept) = MarkdownWriter.markdown(text: text, entities: entities)
            let theirs = (answer.entities ?? []).count
            if markdown != (answer.text ?? "") || kept.count != theirs {
                differences.append("\(String(reflecting: text)) \(entities.map(MarkdownParserTests.describe)): ours \(String(reflecting: markdown)), TDLib \(String(reflecting: answer.text ?? ""))")
            }
            if markdown != text {
                written += 1
                let again = MarkdownParser.parse(markdown)
                #expect(again.text == text && again.entities == entities, "\(String(reflecting: markdown))")
            }
        }
        #expect(written >= 300)
        #expect(differences.isEmpty, "\(differences.count) of \(inputs.count) differ:\n\(differences.prefix(30).joined(separator: "\n"))")
    }
}
