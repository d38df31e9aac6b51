import Foundation
import SyncCore
import TestVectors

/// TDLib's answers for a batch of requests, from Tests/Fixtures/tdlib/tdlib_oracle.py (libtdjson's td_execute, one
/// process for the whole batch).
enum TDLibOracle {
    struct Answer: Decodable {
        let text: String?
        let entities: [[JSONValue]]?
        let error: String?
    }

    /// A JSON scalar of an entity row: a type name, a number, a string argument or null.
    enum JSONValue: Decodable, Equatable {
        case string(String)
        case number(Int64)
        case null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let number = try? container.decode(Int64.self) {
                self = .number(number)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    /// `count` more inputs from Tests/Fixtures/tdlib/make_corpus.py with another seed than the committed corpus.
    static func generatedInputs(kind: String, count: Int, seed: Int) throws -> [String] {
        let generator = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/tdlib/make_corpus.py")
        let result = try ProcessRunner.run(
            ProcessRunner.venvPython, [generator.path, "--kind", kind, "--count", String(count), "--seed", String(seed)], timeout: 60)
        guard result.succeeded else { throw OracleFailure(description: "make_corpus.py failed: \(result.errorOutput.suffix(1000))") }
        let decoder = JSONDecoder()
        return try result.output.split(separator: "\n").map { try decoder.decode(String.self, from: Data($0.utf8)) }
    }

    static var script: URL { Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/tdlib/tdlib_oracle.py") }

    /// Runs the oracle on `requests` (JSON objects) and returns one answer per request.
    static func run(_ requests: [[String: Any]]) throws -> [Answer] {
        let input = try requests.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
            .joined(separator: "\n")
        let result = try ProcessRunner.run(ProcessRunner.venvPython, [script.path], input: Data(input.utf8), timeout: 120)
        guard result.succeeded else {
            throw OracleFailure(description: "tdlib_oracle.py failed: \(result.errorOutput.suffix(2000)) — run `make deps`")
        }
        let decoder = JSONDecoder()
        return try result.output.split(separator: "\n").map { try decoder.decode(Answer.self, from: Data($0.utf8)) }
    }

    struct OracleFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// TDLib's name for an entity type (`textEntityType` + this).
    static func name(_ type: MessageTextEntityType) -> String {
        switch type {
        case .mention: return "Mention"
        case .hashtag: return "Hashtag"
        case .cashtag: return "Cashtag"
        case .botCommand: return "BotCommand"
        case .url: return "Url"
        case .email: return "EmailAddress"
        case .phoneNumber: return "PhoneNumber"
        case .bankCard: return "BankCardNumber"
        case .bold: return "Bold"
        case .italic: return "Italic"
        case .underline: return "Underline"
        case .strikethrough: return "Strikethrough"
        case .spoiler: return "Spoiler"
        case .code: return "Code"
        case .pre(let language): return language == nil ? "Pre" : "PreCode"
        case .textUrl: return "TextUrl"
        case .textMention: return "MentionName"
        case .blockQuote(let collapsed): return collapsed ? "ExpandableBlockQuote" : "BlockQuote"
        case .customEmoji: return "CustomEmoji"
        case .unknown: return "Unknown"
        }
    }
}
