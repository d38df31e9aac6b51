import Foundation
import TLRuntime
import TLSchema
import TelegramApi
import TestVectors
import Testing

/// Byte-for-byte agreement with Telethon 1.45.0 (a real third-party TL implementation), in both directions. Runs
/// `.venv/bin/python Tests/Fixtures/telethon/tl_crosscheck.py` (the venv that `make deps` creates).
@Suite struct TelethonCrossCheckTests {
    static func python(_ mode: String, input: String = "") throws -> String {
        let script = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/telethon/tl_crosscheck.py")
        let result = try ProcessRunner.run(ProcessRunner.venvPython, [script.path, mode], input: Data(input.utf8))
        try #require(result.succeeded, "tl_crosscheck.py \(mode) failed: \(result.errorOutput.suffix(2000))")
        return result.output
    }

    /// Objects built by hand on both sides serialize to the same bytes, and each side parses the other's bytes.
    @Test func handBuiltSamplesAgree() throws {
        let samples = try JSONSerialization.jsonObject(with: Data(try Self.python("samples").utf8)) as! [[String: String]]
        let telethon = Dictionary(uniqueKeysWithValues: samples.map { ($0["name"]!, hex($0["hex"]!)) })
        let ours = TelethonSamples.build()
        #expect(Set(ours.keys) == Set(telethon.keys))
        for (name, bytes) in ours.sorted(by: { $0.key < $1.key }) {
            #expect(hex(bytes) == hex(telethon[name] ?? []), "\(name)")
            // Telethon → us: our parser reads Telethon's bytes and writes them back unchanged.
            var reader = TLReader(telethon[name] ?? [])
            let parsed: [UInt8]
            if name == "sendMessage" || name == "getHistory" || name == "vector_long" {
                parsed = try Api.functions.parse(&reader).serialized()
            } else {
                parsed = try Api.parseObject(&reader).serialized()
            }
            #expect(reader.isAtEnd && parsed == telethon[name], "\(name) (Telethon → ours)")
        }
    }

    /// Random encodings of every constructor and function: we parse and re-serialize them, Telethon parses our
    /// bytes and re-serializes them, and the two agree byte for byte. `long`s are kept non-negative: Telethon's
    /// client-side `Message` class normalizes negative ("marked") peer ids in place, which is not TL.
    @Test func everyConstructorAgreesWithTelethon() throws {
        let schema = Repository.apiSchema
        var encoder = RandomTLEncoder(schema: schema, seed: 1045)
        encoder.nonNegativeLongs = true
        var ours: [(String, [UInt8])] = []
        for combinator in schema.constructors + schema.functions {
            var bytes: [UInt8] = []
            encoder.encodeBoxed(combinator, depth: 0, into: &bytes)
            var reader = TLReader(bytes)
            let written = combinator.isFunction
                ? try Api.functions.parse(&reader).serialized() : try Api.parseObject(&reader).serialized()
            ours.append((combinator.name, written))
        }
        let answer = try Self.python("reserialize", input: ours.map { hex($0.1) }.joined(separator: "\n") + "\n")
        let lines = answer.split(separator: "\n").map(String.init)
        #expect(lines.count == ours.count)
        var disagreements: [String] = []
        for (line, (name, bytes)) in zip(lines, ours) where line != hex(bytes) {
            disagreements.append("\(name): \(line.prefix(120))")
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagree: \(disagreements.prefix(10).joined(separator: "; "))")
    }
}
