public import Postbox
public import PostboxCoding

/// One answer of a poll: its text and the opaque bytes `messages.sendVote` names it by (Telegram-iOS
/// `TelegramMediaPollOption`; the API's `pollAnswer`).
public struct TelegramMediaPollOption: Hashable, Sendable, Codable {
    public var text: String
    public var opaqueIdentifier: [UInt8]

    public init(text: String, opaqueIdentifier: [UInt8]) {
        self.text = text
        self.opaqueIdentifier = opaqueIdentifier
    }
}

/// How many chose one answer, whether we did, and for a quiz whether it is the right one — known once we voted or
/// the poll closed (Telegram-iOS `TelegramMediaPollOptionVoters`; the API's `pollAnswerVoters`).
public struct TelegramMediaPollOptionVoters: Hashable, Sendable, Codable {
    public var selected: Bool
    public var opaqueIdentifier: [UInt8]
    public var count: Int32?
    public var isCorrect: Bool

    public init(selected: Bool, opaqueIdentifier: [UInt8], count: Int32?, isCorrect: Bool) {
        self.selected = selected
        self.opaqueIdentifier = opaqueIdentifier
        self.count = count
        self.isCorrect = isCorrect
    }
}

/// A poll's results as the server last told us (Telegram-iOS `TelegramMediaPollResults`; the API's `pollResults`).
public struct TelegramMediaPollResults: Hashable, Sendable, Codable {
    /// A quiz's explanation, shown once answered (`solution`, `solution_entities`).
    public struct Solution: Hashable, Sendable, Codable {
        public var text: String
        public var entities: [MessageTextEntity]

        public init(text: String, entities: [MessageTextEntity] = []) {
            self.text = text
            self.entities = entities
        }
    }

    public var voters: [TelegramMediaPollOptionVoters]?
    public var totalVoters: Int32?
    public var recentVoters: [PeerId]
    public var solution: Solution?

    public init(
        voters: [TelegramMediaPollOptionVoters]? = nil, totalVoters: Int32? = nil, recentVoters: [PeerId] = [],
        solution: Solution? = nil
    ) {
        self.voters = voters
        self.totalVoters = totalVoters
        self.recentVoters = recentVoters
        self.solution = solution
    }

    /// These results updated by `other`; `min` results (the same for everyone, Telegram's `pollResults.min`) keep
    /// which answers we chose from ours (Telegram-iOS `TelegramMediaPollResults.withUpdate`).
    public func updated(with other: TelegramMediaPollResults, min: Bool) -> TelegramMediaPollResults {
        guard min else { return other }
        var result = other
        if let otherVoters = other.voters {
            let chosen = Set((voters ?? []).filter(\.selected).map(\.opaqueIdentifier))
            let correct = Set((voters ?? []).filter(\.isCorrect).map(\.opaqueIdentifier))
            result.voters = otherVoters.map { option in
                var option = option
                option.selected = option.selected || chosen.contains(option.opaqueIdentifier)
                option.isCorrect = option.isCorrect || correct.contains(option.opaqueIdentifier)
                return option
            }
        } else {
            result.voters = voters
        }
        if result.solution == nil { result.solution = solution }
        return result
    }
}

/// Whether everyone sees who voted for what (`public_voters`).
public enum TelegramMediaPollPublicity: Hashable, Sendable, Codable {
    case anonymous
    case `public`
}

/// A poll, or a quiz with one right answer (Telegram-iOS `TelegramMediaPollKind`).
public enum TelegramMediaPollKind: Hashable, Sendable, Codable {
    case poll(multipleAnswers: Bool)
    case quiz
}

/// A poll or quiz; shared by every message that shows it, by its id, so `updateMessagePoll` changes them all
/// (Telegram-iOS `TelegramMediaPoll`; the API's `messageMediaPoll`).
public struct TelegramMediaPoll: Media, Hashable, Codable {
    public var pollId: MediaId
    public var publicity: TelegramMediaPollPublicity
    public var kind: TelegramMediaPollKind
    public var text: String
    public var textEntities: [MessageTextEntity]
    public var options: [TelegramMediaPollOption]
    /// A quiz's right answers when we sent it (the server tells others only after they answer, in `results`).
    public var correctAnswers: [[UInt8]]?
    public var results: TelegramMediaPollResults
    public var isClosed: Bool
    /// When the poll closes by itself (`close_date`), if it does.
    public var deadlineDate: Int32?

    public init(
        pollId: MediaId, publicity: TelegramMediaPollPublicity, kind: TelegramMediaPollKind, text: String,
        textEntities: [MessageTextEntity] = [], options: [TelegramMediaPollOption], correctAnswers: [[UInt8]]? = nil,
        results: TelegramMediaPollResults = TelegramMediaPollResults(), isClosed: Bool = false,
        deadlineDate: Int32? = nil
    ) {
        self.pollId = pollId
        self.publicity = publicity
        self.kind = kind
        self.text = text
        self.textEntities = textEntities
        self.options = options
        self.correctAnswers = correctAnswers
        self.results = results
        self.isClosed = isClosed
        self.deadlineDate = deadlineDate
    }

    public var id: MediaId? { pollId }

    /// Whether we chose an answer.
    public var hasVoted: Bool { results.voters?.contains(where: \.selected) ?? false }

    /// Whether the counts may be shown: after we voted or once the poll is closed (as Telegram's apps do).
    public var showsResults: Bool { hasVoted || isClosed }

    /// The poll with new results (`updateMessagePoll`, `messages.getPollResults`).
    public func withUpdatedResults(_ results: TelegramMediaPollResults, min: Bool) -> TelegramMediaPoll {
        var poll = self
        poll.results = self.results.updated(with: results, min: min)
        return poll
    }

    public init(decoder: PostboxDecoder) throws(PostboxDecodingError) {
        self = try decoder.decodeCodable(TelegramMediaPoll.self, forKey: "m")
    }

    public func encode(_ encoder: PostboxEncoder) {
        encoder.encodeCodable(self, forKey: "m")
    }

    public func isEqual(to other: Media) -> Bool { (other as? TelegramMediaPoll) == self }
}
