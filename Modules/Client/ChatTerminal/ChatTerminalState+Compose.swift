import Foundation
public import Postbox
import SyncCore

extension ChatTerminalState {
    /// The key map and commands, as `--help` and the README list them.
    public static let keyHelp = """
        KEYS (interactive):
          chat list   Up/Down select · PgUp/PgDn page · Enter open · Tab next account
          chat        type a message (markdown) · Enter send · Up/Down scroll a line · PgUp/PgDn page (loads older
                      messages) · End back to the newest · Esc back to the list (a typed line stays as the
                      chat's draft)
          anywhere    Ctrl-C or /quit leave · Ctrl-U clear the line · Tab next account
        COMMANDS (on the compose line):
          /reply [ID] (alone: the newest incoming message; Esc cancels)   /photo PATH [CAPTION]
          /file PATH [CAPTION]   /voice WAV   /sticker N (or SET/N)   /gif N (a saved GIF, as 'tg gifs' numbers them)
          /savegif [ID] (alone: the newest GIF in the chat)   /search TEXT   /account NAME   /quit
        """

    /// Runs the compose line: a command, or (in a chat) a message.
    mutating func runComposeLine(in peerId: PeerId?) -> [ChatTerminalEffect] {
        let line = compose
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return [] }
        compose = ""
        guard trimmed.hasPrefix("/") else {
            guard let peerId else {
                notice = "open a chat first (Enter), or type a /command"
                return []
            }
            let reply = replyTo
            replyTo = nil
            // Sending clears the chat's draft (the server drops it too, as Telegram's does).
            let clearDraft: [ChatTerminalEffect] = drafts[peerId] == nil ? [] : [.saveDraft(peerId, nil)]
            setDraft(nil, for: peerId)
            return [.send(.text(markdown: line, replyTo: reply), to: peerId)] + clearDraft
        }
        let parts = trimmed.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
        let name = parts.first ?? ""
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        switch name {
        case "quit", "q":
            quitting = true
            return [.quit]
        case "search":
            guard !argument.isEmpty else { return usage("/search TEXT") }
            notice = "searching “\(argument)”…"
            return [.search(argument)]
        case "account":
            guard !argument.isEmpty else {
                return usage("/account NAME (accounts: \(accountNames.joined(separator: ", ")))")
            }
            guard accountNames.contains(argument) else {
                notice = "no account '\(argument)' (accounts: \(accountNames.joined(separator: ", ")))"
                return []
            }
            return argument == accountName ? [] : [.switchAccount(argument)]
        default:
            break
        }
        guard let peerId else {
            notice = "/\(name) works in a chat, or is unknown — see tg --help"
            return []
        }
        let reply = replyTo
        let (path, caption) = Self.pathAndCaption(argument)
        switch name {
        case "reply":
            let newestIncoming = history.entries.flatMap(\.messages).last { $0.flags.contains(.incoming) }?.id.id
            guard let id = argument.isEmpty ? newestIncoming : Int32(argument), id > 0 else {
                return usage("/reply ID, or /reply alone for the newest incoming message")
            }
            replyTo = id
            notice = "replying to \(id) — Esc cancels"
            return []
        case "photo", "file":
            guard !path.isEmpty else { return usage("/\(name) PATH [CAPTION]") }
            replyTo = nil
            notice = "sending \(path)…"
            let outgoing: ChatTerminalOutgoing =
                name == "photo"
                ? .photo(path: path, caption: caption, replyTo: reply)
                : .file(path: path, caption: caption, replyTo: reply)
            return [.send(outgoing, to: peerId)]
        case "voice":
            guard !path.isEmpty else { return usage("/voice WAV") }
            replyTo = nil
            notice = "sending the voice note…"
            return [.send(.voice(path: path, replyTo: reply), to: peerId)]
        case "sticker":
            guard !argument.isEmpty else { return usage("/sticker N or SET/N") }
            let choice = argument.contains("/") ? argument : "telegraph/\(argument)"
            replyTo = nil
            notice = "sending the sticker \(choice)…"
            return [.send(.sticker(choice, replyTo: reply), to: peerId)]
        case "gif":
            guard let number = Int(argument), number >= 1 else { return usage("/gif N (its number in 'tg gifs')") }
            replyTo = nil
            notice = "sending saved GIF \(number)…"
            return [.send(.savedGif(number, replyTo: reply), to: peerId)]
        case "savegif":
            // Saved GIFs are cloud documents (`messages.saveGif`): a secret chat's files are not.
            guard peerId.namespace != Namespaces.Peer.secretChat else {
                notice = "a secret chat's GIF cannot be saved: saved GIFs come from cloud chats"
                return []
            }
            guard let id = argument.isEmpty ? newestGif : Int32(argument), id > 0 else {
                return usage("/savegif ID, or /savegif alone for the newest GIF in the chat")
            }
            notice = "saving the GIF of \(id)…"
            return [.saveGif(peerId, message: id)]
        default:
            notice = "unknown command /\(name) — see tg --help"
            return []
        }
    }

    /// The newest message in the open chat's window that carries a GIF.
    private var newestGif: Int32? {
        history.entries.flatMap(\.messages).last { message in
            message.media.contains { ($0 as? TelegramMediaFile)?.isAnimated == true }
        }?.id.id
    }

    mutating func usage(_ text: String) -> [ChatTerminalEffect] {
        notice = "usage: \(text)"
        return []
    }

    /// `PATH [CAPTION]`; a path with spaces goes in quotes.
    static func pathAndCaption(_ argument: String) -> (String, String) {
        if argument.hasPrefix("\""), let close = argument.dropFirst().firstIndex(of: "\"") {
            let path = String(argument[argument.index(after: argument.startIndex)..<close])
            return (path, argument[argument.index(after: close)...].trimmingCharacters(in: .whitespaces))
        }
        let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
        return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
    }
}
