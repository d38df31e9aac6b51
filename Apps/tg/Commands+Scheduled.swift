import ArgumentParser
import Foundation
import Postbox
import TelegramClient
import TelegramCore

/// `tg send --at`: a text scheduled on the server (TelegramClient's `ScheduledCommands`).
extension Send {
    func schedule(at date: Date) async throws {
        let (chat, scheduled) = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let scheduled = try await ScheduledCommands.schedule(
                account, peerId, markdown: markdown, at: Int32(date.timeIntervalSince1970))
            return (PeerResolver.handle(peerId), scheduled)
        }
        guard let scheduled else {
            if output.json { return try Output.json(ScheduledOutput(chat: chat, id: nil, date: nil, text: markdown)) }
            print("sent at once in \(chat) (the time had come)")
            return
        }
        let item = ScheduledOutput(scheduled, chat: chat)
        if output.json { return try Output.json(item) }
        print("scheduled \(item.line())")
    }
}

/// Listing a chat's scheduled messages.
struct Scheduled: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List a chat's scheduled messages ('tg send CHAT TEXT --at TIME' schedules one).",
        discussion: """
            messages.getScheduledHistory: the account's messages waiting in the chat for their time, soonest first, \
            one line each: '#ID at TIME: TEXT' (TIME in UTC). The server sends each at its time as a normal message. \
            --json prints [{"chat", "id", "date", "text"}] (date: Unix time).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: me, @username, +phone, user:ID, chat:ID, channel:ID or its name.") var peer: String

    func run() async throws {
        let items = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let chat = PeerResolver.handle(peerId)
            return try await ScheduledCommands.list(account, peerId).map { ScheduledOutput($0, chat: chat) }
        }
        if output.json { return try Output.json(items) }
        if items.isEmpty { print("no scheduled messages") }
        for item in items { print(item.line()) }
    }
}

/// One scheduled message, as `tg send --at` and `tg scheduled` print it.
struct ScheduledOutput: Encodable {
    var chat: String
    var id: Int32?
    var date: Int32?
    var text: String

    init(chat: String, id: Int32?, date: Int32?, text: String) {
        self.chat = chat
        self.id = id
        self.date = date
        self.text = text
    }

    init(_ message: ScheduledMessage, chat: String) {
        self.init(chat: chat, id: message.id.id, date: message.date, text: message.text)
    }

    func line() -> String {
        let formatter = ISO8601DateFormatter()
        let time = date.map { formatter.string(from: Date(timeIntervalSince1970: Double($0))) } ?? "now"
        return "#\(id.map(String.init) ?? "-") in \(chat) at \(time): \(text)"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(chat, forKey: .chat)
        try container.encode(id, forKey: .id)
        try container.encode(date, forKey: .date)
        try container.encode(text, forKey: .text)
    }

    private enum CodingKeys: String, CodingKey { case chat, id, date, text }
}
