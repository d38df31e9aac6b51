public import Foundation
public import Postbox
public import TelegramCore

/// Scheduled messages for the command line (`tg send --at`, `tg scheduled`) over TelegramCore's
/// `Account.scheduleMessage` and `Account.refreshScheduledMessages`.
public enum ScheduledCommands {
    /// Schedules `markdown` (parsed as `tg send` parses it) for `date` in `peerId`'s chat; `nil` when the server sent
    /// it at once.
    public static func schedule(
        _ account: Account, _ peerId: PeerId, markdown: String, at date: Int32
    ) async throws(ClientError) -> ScheduledMessage? {
        guard !SecretChatting.isSecret(peerId) else { throw .badInput("a secret chat cannot schedule messages") }
        let (text, entities) = OutgoingText.parse(markdown)
        return try await ChannelCommands.run("scheduling the message") { () async throws(PeerActionError) in
            try await account.scheduleMessage(peerId, text: text, entities: entities, at: date)
        }
    }

    /// `peerId`'s scheduled messages, asked of the server, soonest first.
    public static func list(_ account: Account, _ peerId: PeerId) async throws(ClientError) -> [ScheduledMessage] {
        guard !SecretChatting.isSecret(peerId) else { return [] }
        return try await ChannelCommands.run("reading the scheduled messages") { () async throws(PeerActionError) in
            try await account.refreshScheduledMessages(peerId)
        }
    }

    /// A time as `tg send --at` takes it: ISO 8601 (`2026-12-01T09:30:00Z`, with or without seconds or zone — UTC
    /// without one), or relative to `now`: `+90s`, `+10m`, `+2h`, `+1d`. `nil` when it is neither.
    public static func parseTime(_ text: String, now: Date = Date()) -> Date? {
        if text.hasPrefix("+"), let unit = text.last, let amount = Double(text.dropFirst().dropLast()), amount >= 0 {
            let seconds: Double
            switch unit {
            case "s": seconds = 1
            case "m": seconds = 60
            case "h": seconds = 3600
            case "d": seconds = 86_400
            default: return nil
            }
            return now.addingTimeInterval(amount * seconds)
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm"] {
            local.dateFormat = format
            if let date = local.date(from: text) { return date }
        }
        return nil
    }
}
