import ArgumentParser
import Foundation
import TelegramClient

/// `tg mute PEER [8h|forever]`: the chat's notifications are off for a while or for good.
struct Mute: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mute a chat: for a while (30m, 8h, 2d, 1w) or forever.",
        discussion: """
            account.updateNotifySettings with mute_until: every device of the account hears it \
            (updateNotifySettings), 'tg chats' shows 🔇 after the chat's name, and the pushes the server sends for it \
            have nothing to show, so the notification service shows none. Prints 'muted NAME until DATE' or 'muted \
            NAME forever', or with --json {"chat", "muteUntil"} (2147483647 forever).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: @username, +phone, user:ID, chat:ID, channel:ID or its name.") var peer: String
    @Argument(help: "How long: 30m, 8h, 2d, 1w or forever.") var duration: String = "forever"

    func validate() throws {
        guard NotifyCommands.duration(duration) != nil else {
            throw ValidationError("'\(duration)' is not a duration — e.g. 30m, 8h, 2d, 1w or forever")
        }
    }

    func run() async throws {
        let seconds = NotifyCommands.duration(duration) ?? nil
        try await MuteToggle.run(global: global, json: output.json, peer: peer, mute: true, seconds: seconds)
    }
}

/// `tg unmute PEER`.
struct Unmute: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Unmute a chat.",
        discussion: """
            account.updateNotifySettings with mute_until 0. Prints 'unmuted NAME', or with --json {"chat", \
            "muteUntil": 0}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: @username, +phone, user:ID, chat:ID, channel:ID or its name.") var peer: String

    func run() async throws {
        try await MuteToggle.run(global: global, json: output.json, peer: peer, mute: false, seconds: nil)
    }
}

enum MuteToggle {
    struct Result: Encodable {
        var chat: String
        var muteUntil: Int32
    }

    static func run(global: GlobalOptions, json: Bool, peer: String, mute: Bool, seconds: Int32?) async throws {
        let (handle, name, until) = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let until = try await NotifyCommands.set(account, peerId, mute: mute, seconds: seconds)
            return (PeerResolver.handle(peerId), chatName(peerId, account), until)
        }
        if json { return try Output.json(Result(chat: handle, muteUntil: until)) }
        if !mute { return print("unmuted \(name)") }
        if until == Int32.max { return print("muted \(name) forever") }
        print("muted \(name) until \(formatDate(until))")
    }

    /// `2026-11-29 11:20 UTC`.
    static func formatDate(_ date: Int32) -> String {
        var time = time_t(date)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02d %02d:%02d UTC", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min))
    }
}
