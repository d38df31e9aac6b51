import CommandLineOutput
import TelegramClient

/// tg's exit statuses: CommandLineOutput's 0, 1 and 2, then the client's own.
enum TGExit {
    static let notLoggedIn = ToolExitCode(rawValue: 3)
    static let unreachable = ToolExitCode(rawValue: 4)
    static let notFound = ToolExitCode(rawValue: 5)
    static let refused = ToolExitCode(rawValue: 6)

    static let helpText = """
        EXIT CODES:
          0  success
          1  failure (a file could not be written, an internal error)
          2  usage error or unusable input (bad arguments, unreadable file, wrong code or password)
          3  not logged in (no account, or the server ended its authorization)
          4  the server could not be reached in time (--timeout)
          5  not found (no such peer, message or sticker)
          6  the server refused (its error is printed)
        """

    /// The error line and status for a client error.
    static func toolError(_ error: ClientError) -> ToolError {
        switch error {
        case .badInput(let text): return ToolError(text, exitCode: .badInput)
        case .notLoggedIn(let text): return ToolError(text, exitCode: notLoggedIn)
        case .unreachable(let text): return ToolError(text, exitCode: unreachable)
        case .notFound(let text): return ToolError(text, exitCode: notFound)
        case .refused(let text): return ToolError(text, exitCode: refused)
        case .storage(let text): return ToolError(text, exitCode: .failure)
        }
    }
}
