import Foundation
import ImageCore

/// Test helpers: a scratch directory, running real tools, and reading their PAM output.
enum Tools {
    static func scratch() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("webp-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Parses a `P7` PAM with TUPLTYPE RGB_ALPHA (what `dwebp -pam` writes) into a premultiplied bitmap.
    static func readPAM(_ url: URL) throws -> Bitmap? {
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
