import ArgumentParser
import ChatTerminal
import CommandLineOutput

/// `tg`: the Telegraph client's scripted face — one command per run over the account libraries (TelegramClient,
/// TelegramCore, MediaResources, ChatRender); this file and its neighbours parse arguments and format output only.
@main
struct TG: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tg",
        abstract: "The Telegraph client, one command at a time: sign in, list chats, read and send messages.",
        discussion: """
            Accounts live under --root (default: $TG_ROOT, else $XDG_DATA_HOME/telegraph, else \
            ~/.local/share/telegraph): the account manager's records and keys, one encrypted Postbox per account, and \
            tg-client.json with each account's name and server. 'tg login' stores the server; later commands need \
            only the root. --account NAME picks an account (default: the current one, set by 'login' and 'switch').

            Peers: me, @username, +phone, user:ID, chat:ID, channel:ID, secret:ID (a secret chat), or a chat's name as 'tg chats' shows it.
            Markdown: **bold** __italic__ ~~strike~~ ||spoiler|| `code` ```pre``` [text](https://link).
            --json prints one JSON object or array on standard output with stable keys ('watch' prints one object per line).
            Progress bars go to standard error when it is a terminal.

            \(TGExit.helpText)

            \(ChatTerminalState.keyHelp)
            """,
        subcommands: [
            Login.self, Accounts.self, Switch.self, Logout.self, Chats.self, History.self, Send.self, Edit.self,
            Delete.self, Read.self, Search.self, Download.self, Render.self, Watch.self, WatchChats.self, UI.self,
            Username.self, ProfilePhoto.self, Secret.self, SecretKey.self, Proxy.self, CreateChannel.self,
            CreateGroup.self, Join.self,
            Leave.self, Invite.self, Members.self, Admin.self, Ban.self, Rename.self, ChatPhoto.self, Pin.self,
            Link.self,
            Requests.self, Privacy.self, Block.self, Unblock.self, Blocked.self, React.self, Vote.self, Draft.self,
            Mute.self,
            Unmute.self, Scheduled.self, Forward.self, Typing.self, Contacts.self, Info.self, Gifs.self,
        ])

    static func main() async {
        await runAsTool(
            GlobalArguments.movedAfterCommand(UI.defaultArguments(Array(CommandLine.arguments.dropFirst()))))
    }
}
