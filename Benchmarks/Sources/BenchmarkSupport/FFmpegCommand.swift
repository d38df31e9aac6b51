import Foundation

/// The `ffmpeg` command a benchmark makes its videos with (installed by `make deps`).
public enum FFmpegCommand {
    /// Runs `ffmpeg -v error -y ARGUMENTS`; a failure stops the benchmark with ffmpeg's message.
    public static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-v", "error", "-y"] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            FileHandle.standardError.write(Data("error: ffmpeg failed (install it with `make deps`): ".utf8) + message)
            exit(1)
        }
    }
}
