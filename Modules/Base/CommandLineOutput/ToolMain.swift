public import ArgumentParser

#if canImport(Glibc)
    import Glibc
#endif

/// What a tool prints and the status it exits with once its command has finished or failed.
public struct ToolOutcome: Equatable, Sendable {
    /// The status to exit with.
    public let exitCode: ToolExitCode
    /// Text for standard output (help and version text).
    public let standardOutput: String
    /// Text for standard error (the error line).
    public let standardError: String

    /// An outcome from its parts.
    public init(exitCode: ToolExitCode, standardOutput: String, standardError: String) {
        self.exitCode = exitCode
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}

extension ParsableCommand {
    /// The tool's name in messages: the command name, or the type's name in lower case.
    public static var toolName: String { configuration.commandName ?? "\(Self.self)".lowercased() }

    /// A tool's whole life, for its `@main` type's `static func main()`: `outcome(running:)`, printed, then
    /// `exit` with its status — 0 after success, 2 for usage errors (not ArgumentParser's 64), a `ToolError`'s own
    /// status, 1 for any other error.
    public static func runAsTool(_ arguments: [String]? = nil) -> Never {
        finish(outcome(running: arguments))
    }

    /// Parses `arguments` (the process's when nil; any subcommand), runs the command and says what the tool prints
    /// and exits with, without exiting.
    public static func outcome(running arguments: [String]?) -> ToolOutcome {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return ToolOutcome(exitCode: .success, standardOutput: "", standardError: "")
        } catch {
            return outcome(for: error)
        }
    }

    /// Prints `result` and exits with its status.
    static func finish(_ result: ToolOutcome) -> Never {
        if !result.standardOutput.isEmpty { print(result.standardOutput) }
        if !result.standardError.isEmpty { ToolOutput.standardError(result.standardError) }
        Glibc.exit(result.exitCode.rawValue)
    }

    /// What the tool prints and exits with for `error` (thrown by parsing or by `run()`):
    /// - a `ToolError`: its line `<tool>: error: <what> — <what to do>` on standard error, its status;
    /// - help or `--version`: the text on standard output, 0;
    /// - an `ExitCode` thrown on purpose: nothing printed, that status;
    /// - a usage error (unknown option, missing argument, a `ValidationError`): `<tool>: error: <message> — run
    ///   '<tool> --help' for usage`, 2;
    /// - anything else: `<tool>: error: <the error>`, 1.
    public static func outcome(for error: any Error) -> ToolOutcome {
        let tool = toolName
        if let error = error as? ToolError {
            return ToolOutcome(exitCode: error.exitCode, standardOutput: "", standardError: error.line(tool: tool))
        }
        if let code = error as? ExitCode {
            return ToolOutcome(exitCode: ToolExitCode(rawValue: code.rawValue), standardOutput: "", standardError: "")
        }
        let code = exitCode(for: error)
        if code == .success {
            return ToolOutcome(exitCode: .success, standardOutput: fullMessage(for: error), standardError: "")
        }
        if code == .validationFailure {
            let usage = ToolError.badInput(message(for: error), remedy: "run '\(tool) --help' for usage")
            return ToolOutcome(exitCode: .badInput, standardOutput: "", standardError: usage.line(tool: tool))
        }
        return ToolOutcome(
            exitCode: .failure, standardOutput: "", standardError: ToolError("\(error)").line(tool: tool))
    }
}

extension AsyncParsableCommand {
    /// `runAsTool` for a command whose `run()` is async (tg-server): the same parsing, messages and exit statuses;
    /// call it as `static func main() async { await runAsTool() }`.
    public static func runAsTool(_ arguments: [String]? = nil) async -> Never {
        finish(await outcome(running: arguments))
    }

    /// `outcome(running:)` for a command whose `run()` is async (subcommands may be either kind).
    public static func outcome(running arguments: [String]?) async -> ToolOutcome {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return ToolOutcome(exitCode: .success, standardOutput: "", standardError: "")
        } catch {
            return outcome(for: error)
        }
    }
}
