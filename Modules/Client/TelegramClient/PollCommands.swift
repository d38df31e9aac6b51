public import Postbox
import SyncCore
public import TelegramCore

/// What `tg send --location/--contact/--dice/--poll` and `tg vote` do (TelegramCore's pending messages with a
/// `TelegramMediaMap`, `TelegramMediaContact`, `TelegramMediaDice` or `TelegramMediaPoll`, and `Account.vote`), shared
/// by the command-line tool and the interactive client.
public enum PollCommands {
    /// `LAT,LONG` as degrees (`21.0285,105.8542`); `nil` when it is not two numbers within ±90 and ±180.
    public static func coordinates(_ text: String) -> (latitude: Double, longitude: Double)? {
        let parts = text.split(separator: ",").map { $0.filter { !$0.isWhitespace } }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return (latitude, longitude)
    }

    /// The emoji Telegram rolls (core.telegram.org "Dice").
    public static let dice = ["🎲", "🎯", "🏀", "⚽", "⚽️", "🎳", "🎰"]

    /// Votes for the answers numbered `answers` (from 1, as `tg history` lists them; none takes the vote back) in the
    /// poll of message `id`; returns the poll as the server answered.
    public static func vote(
        _ account: Account, _ peerId: PeerId, id: Int32, answers: [Int]
    ) async throws(ClientError) -> PollSummary {
        let messageId = MessageId(peerId: peerId, namespace: Namespaces.Message.cloud, id: id)
        let poll = try await ChannelCommands.run(
            answers.isEmpty ? "taking the vote back in message \(id)" : "voting in message \(id)"
        ) { () async throws(PeerActionError) -> TelegramMediaPoll in
            try await account.vote(messageId, optionIndices: answers.map { $0 - 1 })
        }
        return PollSummary(poll)
    }
}
