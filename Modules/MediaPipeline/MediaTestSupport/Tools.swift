public import Foundation
public import ImageCore
import TestVectors

/// Test helpers shared by the media tests: scratch folders, running the real tools used as oracles, and reading
/// their PAM output.
public enum Tools {
    /// A new empty folder `<prefix>-<UUID>` in the temporary directory.
    public static func scratch(_ prefix: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `tool` (looked up on `PATH`) with its output discarded; returns its exit status.
    @available(*, noasync, message: "blocks a cooperative thread: await runOffPool instead")
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments).status
    }

    /// Runs `tool` (looked up on `PATH`); returns its exit status and its standard output followed by its standard
    /// error.
    @available(*, noasync, message: "blocks a cooperative thread: await runCapturingOffPool instead")
    @discardableResult
    public static func runCapturing(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments)
        return (result.status, result.output + result.errorOutput)
    }

    /// `run`, awaited without holding one of Swift's cooperative threads while the tool runs (`offPool`).
    @discardableResult
    public static func runOffPool(_ tool: String, _ arguments: [String]) async throws -> Int32 {
        try await ProcessRunner.runOffPool(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments).status
    }

    /// `runCapturing`, awaited without holding one of Swift's cooperative threads while the tool runs.
    @discardableResult
    public static func runCapturingOffPool(
        _ tool: String, _ arguments: [String]
    ) async throws -> (
        status: Int32, output: String
    ) {
        let result = try await ProcessRunner.runOffPool(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments)
        return (result.status, result.output + result.errorOutput)
    }

    /// Parses a `P7` PAM with TUPLTYPE RGB_ALPHA (what `dwebp -pam` writes) into a premultiplied bitmap.
    public static func readPAM(_ url: URL) throws -> Bitmap? {
        let bytes = [UInt8](try Data(contentsOf: url))
        guard
            let end = bytes.indices.first(where: { i in
                i + 7 <= bytes.count && Array(bytes[i..<i + 7]) == Array("ENDHDR\n".utf8)
            })
        else { return nil }
        let header = String(decoding: bytes[..<end], as: UTF8.self)
        var fields: [String: String] = [:]
        for line in header.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let width = Int(fields["WIDTH"] ?? ""), let height = Int(fields["HEIGHT"] ?? ""),
            fields["DEPTH"] == "4"
        else { return nil }
        return Bitmap(width: width, height: height, straightRGBA: Array(bytes[(end + 7)...]))
    }
}
