import ArgumentParser
import CommandLineOutput
import Foundation
import Testing

/// A command shaped like the tools, to check what `runAsTool` prints and exits with.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "A test command.", discussion: ToolExitCode.helpText)
    @Argument var input: String
    func validate() throws { if input == "invalid" { throw ValidationError("input must not be 'invalid'") } }
    func run() throws {
        if input == "corrupt" { throw ToolError.badInput("corrupt: bad header", remedy: "give a good file") }
    }
}

/// The same with an async `run()`, as tg-server has.
struct AsyncDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "async-demo")
    @Argument var input: String
    func run() async throws {
        await Task.yield()
        if input == "corrupt" { throw ToolError.badInput("corrupt: bad header", remedy: "give a good file") }
    }
}

@Suite struct ToolErrorTests {
    @Test func anErrorIsOneLineWithWhatAndWhatToDo() {
        let error = ToolError.badInput("in.tgs: corrupt", remedy: "give a .tgs file")
        #expect(error.line(tool: "sticker-tool") == "sticker-tool: error: in.tgs: corrupt — give a .tgs file")
        #expect(error.exitCode == .badInput && error.exitCode.rawValue == 2)
        #expect(ToolError("disk full").line(tool: "t") == "t: error: disk full")
        #expect(ToolError("disk full").exitCode == .failure)
    }

    @Test func readingWrapsForeignErrorsAsBadInputAndKeepsToolErrors() {
        struct Corrupt: Error, CustomStringConvertible { var description: String { "bad header" } }
        #expect(throws: ToolError.badInput("a.ogg: bad header", remedy: "fix it")) {
            try ToolError.reading("a.ogg", remedy: "fix it") { throw Corrupt() }
        }
        #expect(throws: ToolError("kept")) { try ToolError.reading("a.ogg") { throw ToolError("kept") } }
        #expect((try? ToolError.reading("a.ogg") { 7 }) == 7)
    }

    @Test func theExitCodesAreDocumented() {
        #expect(ToolExitCode.documented.map(\.rawValue) == [0, 1, 2, 3])
        let help = ToolExitCode.helpText
        #expect(help.hasPrefix("EXIT CODES:"))
        for code in ToolExitCode.documented { #expect(help.contains("  \(code.rawValue)  \(code.meaning)")) }
    }
}

@Suite struct ToolMainTests {
    @Test func toolErrorsPrintTheirLineAndExitWithTheirStatus() {
        let outcome = Demo.outcome(for: ToolError.badInput("x.webp: too large", remedy: "resize it"))
        #expect(
            outcome
                == ToolOutcome(
                    exitCode: .badInput, standardOutput: "", standardError: "demo: error: x.webp: too large — resize it"
                ))
    }

    @Test func usageErrorsExitWithTwoNotSixtyFour() throws {
        for arguments in [["invalid"], [], ["a", "--no-such-option"]] {
            let error = try #require(thrown { _ = try Demo.parseAsRoot(arguments) })
            let outcome = Demo.outcome(for: error)
            #expect(outcome.exitCode == .badInput, "\(arguments)")
            #expect(outcome.standardError.hasPrefix("demo: error: "), "\(arguments)")
            #expect(outcome.standardError.hasSuffix(" — run 'demo --help' for usage"), "\(arguments)")
            #expect(!outcome.standardError.contains("\n"))
        }
    }

    @Test func helpGoesToStandardOutputWithTheExitCodes() throws {
        // `--help` parses to ArgumentParser's help command, whose `run()` throws the help request.
        let error = try #require(
            thrown {
                var command = try Demo.parseAsRoot(["--help"])
                try command.run()
            })
        let outcome = Demo.outcome(for: error)
        #expect(outcome.exitCode == .success && outcome.standardError.isEmpty)
        #expect(outcome.standardOutput.contains("EXIT CODES:") && outcome.standardOutput.contains("  3  partial"))
    }

    @Test func runningParsesRunsAndReportsWithoutExiting() async {
        #expect(
            Demo.outcome(running: ["fine"]) == ToolOutcome(exitCode: .success, standardOutput: "", standardError: ""))
        let corrupt = ToolOutcome(
            exitCode: .badInput, standardOutput: "",
            standardError: "demo: error: corrupt: bad header — give a good file")
        #expect(Demo.outcome(running: ["corrupt"]) == corrupt)
        #expect(Demo.outcome(running: ["invalid"]).exitCode == .badInput)
        #expect(Demo.outcome(running: ["--help"]).standardOutput.contains("EXIT CODES:"))
        #expect(await AsyncDemo.outcome(running: ["fine"]).exitCode == .success)
        let asyncCorrupt = await AsyncDemo.outcome(running: ["corrupt"])
        #expect(asyncCorrupt.standardError == "async-demo: error: corrupt: bad header — give a good file")
        #expect(asyncCorrupt.exitCode == .badInput)
        #expect(await AsyncDemo.outcome(running: []).standardError.hasPrefix("async-demo: error: Missing expected"))
    }

    @Test func otherErrorsAreFailures() {
        struct Broken: Error, CustomStringConvertible { var description: String { "the encoder broke" } }
        #expect(Demo.outcome(for: Broken()).standardError == "demo: error: the encoder broke")
        #expect(Demo.outcome(for: Broken()).exitCode == .failure)
        #expect(
            Demo.outcome(for: ExitCode(3)) == ToolOutcome(exitCode: .partial, standardOutput: "", standardError: ""))
    }

    func thrown(_ body: () throws -> Void) -> (any Error)? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }
}

@Suite struct ProgressLineTests {
    final class Capture: @unchecked Sendable {
        var text = ""
        var time = 0.0
    }

    @Test func onATerminalTheLineIsRedrawnAtMostEveryIntervalAndEndsWithTheFinalState() {
        let capture = Capture()
        let progress = ProgressLine(
            tool: "t", total: 4, interval: 0.1, isTerminal: true, clock: { capture.time },
            write: { capture.text += $0 })
        progress.update(done: 0, current: "a")
        capture.time = 0.05
        progress.update(done: 1, current: "b")  // too soon: dropped
        capture.time = 0.2
        progress.update(done: 2, current: "c")
        progress.finish(done: 4)
        let redraws = capture.text.components(separatedBy: "\r").filter { !$0.isEmpty }
        #expect(redraws.count == 3)
        #expect(redraws[0].hasPrefix("[------------------------------] 0/4 a"))
        #expect(redraws[1].hasPrefix("[###############---------------] 2/4 c"))
        #expect(redraws[2] == "[##############################] 4/4\u{1B}[K\n")
    }

    @Test func offATerminalNothingUnlessAskedThenPlainLines() {
        let quiet = Capture()
        let automatic = ProgressLine(tool: "t", total: 2, isTerminal: false, write: { quiet.text += $0 })
        automatic.update(done: 1, current: "x")
        automatic.finish()
        #expect(quiet.text.isEmpty)

        let asked = Capture()
        let always = ProgressLine(
            tool: "sticker-tool", total: 2, mode: .always, interval: 0, isTerminal: false, clock: { asked.time },
            write: { asked.text += $0 })
        always.update(done: 0, current: "a.tgs")
        always.update(done: 1, current: "b.tgs")
        always.finish(done: 2)
        #expect(asked.text == "sticker-tool: 0/2 a.tgs\nsticker-tool: 1/2 b.tgs\nsticker-tool: 2/2\n")
    }

    @Test func aDroppedLastUpdateIsShownByFinish() {
        let capture = Capture()
        let progress = ProgressLine(
            tool: "t", total: 3, mode: .always, interval: 1, isTerminal: false, clock: { capture.time },
            write: { capture.text += $0 })
        progress.update(done: 1, current: "a")
        progress.update(done: 2, current: "b")
        progress.finish()
        #expect(capture.text == "t: 1/3 a\nt: 2/3 b\n")
    }
}

/// File helpers on a real temporary folder.
@Suite struct ToolFilesTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    func contents(_ url: URL? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (url ?? dir).path).sorted()
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

    @Test func readingAMissingFileIsBadInput() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("missing.ogg").path
        #expect(throws: ToolError.badInput("\(path) does not exist", remedy: "check the path and its permissions")) {
            try readFile(path)
        }
    }

    @Test func aFailedWriteIsAFailureAndLeavesNothingBehind() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("no-such-folder/x.bin").path
        let error = try #require(throws: ToolError.self) { try writeAtomically([1, 2, 3], to: path) }
        #expect(error.what.hasPrefix("cannot write \(path): create: "))
        #expect(error.exitCode == .failure && error.remedy != nil)
        #expect(try contents() == [])
    }

    @Test func aStagedFolderAppearsWholeOrNotAtAll() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("frames")
        var staged = try StagedFolder(directory: target.path)
        try staged.write([1], name: "a.png")
        try staged.write([2], name: "b.png")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        try staged.commit()
        #expect(try contents(target) == ["a.png", "b.png"])
        #expect(try contents() == ["frames"])

        var abandoned = try StagedFolder(directory: dir.appendingPathComponent("other").path)
        try abandoned.write([1], name: "a.png")
        abandoned.discard()
        #expect(try contents() == ["frames"])
    }
}
