import Foundation
import TLGenerator
import TLSchema
import TestVectors
import Testing

/// The committed `GENERATED-*` files are exactly what tl-gen produces from the committed schemas; when this fails,
/// run `make tl` and commit the result.
@Suite struct GeneratedCodeIsCurrentTests {
    @Test(arguments: [
        ("api.tl", "Modules/Network/TelegramApi", "Api"), ("mtproto.tl", "Modules/Network/MTProtoApi", "MTProto"),
    ])
    func committedMatchesGenerator(schema: String, folder: String, rootName: String) throws {
        let text = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Schemas/tl/\(schema)"), encoding: .utf8)
        let parsed = try TLSchema(parsing: text)
        let files = try TLSwiftGenerator(
            schema: parsed, options: .standard(root: rootName, sourceName: "Schemas/tl/\(schema)")
        ).generate()
        let differences = try GeneratedFolder(url: Fixtures.repositoryRoot.appendingPathComponent(folder), root: rootName)
            .sync(files, write: false)
        #expect(differences == [], "run `make tl`: \(differences.joined(separator: ", "))")
        #expect(files.count > 1 || rootName == "MTProto")
    }

    /// Generation is deterministic and every file stays small enough to compile in parallel.
    @Test func deterministicAndSplit() throws {
        let text = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Schemas/tl/api.tl"), encoding: .utf8)
        let schema = try TLSchema(parsing: text)
        let options = TLSwiftGenerator.Options.standard(root: "Api", sourceName: "Schemas/tl/api.tl")
        let first = try TLSwiftGenerator(schema: schema, options: options).generate()
        let second = try TLSwiftGenerator(schema: schema, options: options).generate()
        #expect(first.map(\.contents) == second.map(\.contents))
        #expect(first.count >= 16)
        #expect(first.allSatisfy { $0.name.hasPrefix("GENERATED-") })
        let largest = first.map { $0.contents.split(separator: "\n", omittingEmptySubsequences: false).count }.max()!
        #expect(largest < 6000)
    }

    @Test func reportsUnknownTypes() throws {
        let schema = try TLSchema(parsing: "a#1 x:Missing = A;")
        #expect(throws: TLSwiftGenerator.Failure.self) {
            try TLSwiftGenerator(schema: schema, options: .init(root: "T", sourceName: "t.tl")).generate()
        }
    }
}
