import ArgumentParser
import ChatTerminal
import CommandLineOutput

#if canImport(Glibc)
    import Glibc
#endif

/// `tg ui`, and `tg` alone on a terminal: the interactive client (ChatTerminal).
struct UI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "The interactive client (also 'tg' alone on a terminal): chat list, chats, compose, search, accounts.",
        discussion: ChatTerminalState.keyHelp)

    @OptionGroup var global: GlobalOptions

    /// `tg` with no command (nothing but global options): `ui` when standard input and output are a terminal.
    static func defaultArguments(_ arguments: [String]) -> [String] {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if GlobalArguments.withValue.contains(name) {
                index += argument.contains("=") ? 1 : 2
            } else if GlobalArguments.flags.contains(argument) {
                index += 1
            } else {
                return arguments
            }
        }
        return index == arguments.count && RawTerminal.isInteractive ? arguments + ["ui"] : arguments
    }

    func run() async throws {
        guard RawTerminal.isInteractive else {
            throw ToolError.badInput("'tg ui' needs a terminal", remedy: "run it in a terminal, or use the commands")
        }
        try await global.withSession { session in
            try await ChatTerminalApp.run(session: session, accountName: global.account, timeout: global.timeout)
        }
    }
}
