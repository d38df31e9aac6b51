import ArgumentParser
import CommandLineOutput

/// `postbox-tool`: inspect, search, import, export, rekey and verify a Postbox.
@main
struct PostboxTool: ParsableCommand {
    static func main() { runAsTool() }

    static let configuration = CommandConfiguration(
        commandName: "postbox-tool",
        abstract: "Inspect, search, import, export, rekey and verify an account's Postbox.",
        discussion: """
            The key is 32 key bytes and 16 salt bytes: a file of 48 raw bytes or 96 hex digits (--key-file), or 96 \
            hex digits in the POSTBOX_KEY environment variable. A wrong key exits with status 2.

            \(ToolExitCode.helpText)
            """,
        subcommands: [
            Stats.self, Tables.self, Peers.self, History.self, Search.self, ImportJSONL.self, ExportJSONL.self,
            AddMessage.self, Rekey.self, Verify.self, WriteLoop.self, WatchChatList.self,
        ])
}
