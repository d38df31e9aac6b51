/// An error a command-line tool reports as one line on standard error, `<tool>: error: <what> — <what to do>`, and
/// the exit status it ends the tool with.
public struct ToolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file or argument it concerns.
    public let what: String
    /// What the user can do about it; nil when there is nothing useful to say.
    public let remedy: String?
    /// The status the tool exits with.
    public let exitCode: ToolExitCode

    /// An error with its message, remedy and exit status (a failure unless told otherwise).
    public init(_ what: String, remedy: String? = nil, exitCode: ToolExitCode = .failure) {
        self.what = what
        self.remedy = remedy
        self.exitCode = exitCode
    }

    /// An input that cannot be used (exit status 2).
    public static func badInput(_ what: String, remedy: String? = nil) -> ToolError {
        ToolError(what, remedy: remedy, exitCode: .badInput)
    }

    /// `<what> — <what to do>`, or `<what>` alone.
    public var description: String { remedy.map { "\(what) — \($0)" } ?? what }

    /// The line the tool prints: `<tool>: error: <what> — <what to do>`.
    public func line(tool: String) -> String { "\(tool): error: \(description)" }

    /// Runs `body`, turning any error that is not already a `ToolError` into a bad-input error about `path`
    /// (`<path>: <the error>`) with `remedy`: for the step that reads and decodes an input file.
    public static func reading<T>(_ path: String, remedy: String? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ToolError {
            throw error
        } catch {
            throw ToolError.badInput("\(path): \(error)", remedy: remedy)
        }
    }
}
