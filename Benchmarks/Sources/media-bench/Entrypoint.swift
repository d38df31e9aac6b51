import BenchmarkSupport
import Foundation

/// Media benchmarks, each against its named peer, in one run:
/// .tgs frames vs a C loop over rlottie, WebP decode vs dwebp, Opus encoding vs opusenc, round avatars cold vs
/// cached, and the frame cache's size and random access vs raw frames. `media-bench tgs` runs only the .tgs render
/// tables.
@main
enum MediaBench {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func main() throws {
        checkCommandLine(
            """
            usage: media-bench [tgs]

            .tgs frames vs a C loop over rlottie, WebP decode vs dwebp, Opus encoding vs opusenc, round avatars, and the
            frame cache, each against its peer in one run.
              tgs   run only the .tgs render tables
            """, accepted: ["tgs"])
        printMachine()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("media-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try LottieBench.run(repository: repository)
        if CommandLine.arguments.dropFirst().contains("tgs") { return }
        try WebPBench.run(scratch: scratch)
        try OpusBench.run(scratch: scratch)
        try AvatarBench.run(scratch: scratch)
        try FrameCacheBench.run(repository: repository)
    }
}

/// Runs a tool and returns its standard output and error.
func runTool(_ tool: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "\(tool) failed: \(String(decoding: data, as: UTF8.self))")
    return String(decoding: data, as: UTF8.self)
}
