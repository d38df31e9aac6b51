import CommandLineOutput
import Foundation
import Testing

/// The media tools' file helpers on a real temporary folder.
@Suite struct CommandLineOutputTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    @Test func writeThenReadRoundTripsAndReplacesAnExistingFile() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.bin").path
        try writeAtomically([1, 2, 3, 4, 5], to: path)
        #expect(try readFile(path) == [1, 2, 3, 4, 5])
        try writeAtomically([9], to: path)
        #expect(try readFile(path) == [9])
        // No temporary `.part` file is left beside the result.
        #expect(try contents() == ["out.bin"])
    }

    @Test func readingAMissingFileThrowsAOneLineToolError() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("missing.ogg").path
        #expect(throws: ToolError.self) { try readFile(path) }
        do {
            _ = try readFile(path)
        } catch let error as ToolError {
            #expect(error.description == "cannot read \(path)")
        }
    }

    @Test func aFailedWriteThrowsAOneLineToolErrorAndLeavesNothingBehind() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("no-such-folder/x.bin").path
        var message = ""
        do {
            try writeAtomically([1, 2, 3], to: path)
        } catch let error as ToolError {
            message = error.description
        }
        #expect(message.hasPrefix("cannot write \(path): "))
        #expect(try contents() == [])
    }
}
