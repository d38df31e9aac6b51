import Foundation
import SyncCore
import TestVectors
import Testing

@testable import TextFormat

/// TextFormat's entity finder against TDLib's `getTextEntities` (libtdjson from python-telegram 2.0.0, offline) on
/// Tests/Fixtures/tdlib/entities-corpus.jsonl: 722 inputs, hand-written hard cases and seeded mixes. Every input must
/// give TDLib's entities exactly; the one kind TDLib finds that the API has no entity for — media timestamps
/// (`1:30`), a TDLib-side link into a video — is left out of the comparison (Modules/Core/README.md, "Text entities and markdown").
@Suite struct EntityFinderTests {
    static func corpus() throws -> [String] {
        let file = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/tdlib/entities-corpus.jsonl")
        let decoder = JSONDecoder()
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true)
            .map { try decoder.decode(String.self, from: Data($0.utf8)) }
    }

    @Test func everyInputGivesTDLibsEntities() throws {
        let committed = try Self.corpus()
        #expect(committed.count >= 500)
        // The committed corpus, and 3,000 more from another seed each run.
        let inputs = committed + (try TDLibOracle.generatedInputs(kind: "entities", count: 3_000, seed: 2_026))
        let answers = try TDLibOracle.run(inputs.map { ["op": "entities", "text": $0] })
        try #require(answers.count == inputs.count)
        var differences: [String] = []
        var compared = 0
        for (text, answer) in zip(inputs, answers) {
            let theirs = (answer.entities ?? []).filter { $0.first != .string("MediaTimestamp") }.map { row -> String in
                guard case .string(let name) = row[0], case .number(let offset) = row[1], case .number(let length) = row[2] else { return "?" }
                return "\(name) \(offset) \(length)"
            }
            let ours = TextEntityFinder.entities(in: text).map {
                "\(TDLibOracle.name($0.type)) \($0.range.lowerBound) \($0.range.count)"
            }
            compared += theirs.count
            if ours != theirs { differences.append("\(String(reflecting: text)): ours \(ours), TDLib \(theirs)") }
        }
        // Not vacuous: the corpus makes TDLib find hundreds of entities of every kind.
        #expect(compared >= 700)
        #expect(differences.isEmpty, "\(differences.count) of \(inputs.count) differ:\n\(differences.prefix(40).joined(separator: "\n"))")
    }
}
