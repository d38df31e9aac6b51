public import Postbox
public import SyncCore
import SyncCoreApi
import TelegramApi

extension TelegramMediaPoll {
    /// A poll to send (`inputMediaPoll`): the question and answers, public voters, multiple answers, and for a quiz
    /// its right answer and solution; the server gives it its id.
    var apiInputMedia: Api.InputMedia {
        let answers = options.map { option in
            Api.PollAnswer.pollAnswer(
                .init(text: .textWithEntities(.init(text: option.text, entities: [])), option: option.opaqueIdentifier))
        }
        var multiple = false
        if case .poll(let multipleAnswers) = kind { multiple = multipleAnswers }
        let correct = (correctAnswers ?? []).compactMap { answer in
            options.firstIndex { $0.opaqueIdentifier == answer }.map { Int32($0) }
        }
        let solution = results.solution?.text
        return .inputMediaPoll(
            .init(
                poll: .poll(
                    .init(
                        id: 0, closed: isClosed, publicVoters: publicity == .public, multipleChoice: multiple,
                        quiz: kind == .quiz, question: .textWithEntities(.init(text: text, entities: [])),
                        answers: answers, hash: 0)),
                correctAnswers: kind == .quiz ? correct : nil, solution: kind == .quiz ? solution : nil,
                solutionEntities: kind == .quiz && solution != nil ? [] : nil))
    }

    /// A new poll to send: answers get the options "0", "1", … (as Telegram's apps number them); `quizAnswer`, the
    /// index of a quiz's right answer, makes it a quiz.
    public static func outgoing(
        question: String, answers: [String], multipleAnswers: Bool = false, publicVoters: Bool = false,
        quizAnswer: Int? = nil, solution: String? = nil
    ) -> TelegramMediaPoll {
        let options = answers.enumerated().map { index, text in
            TelegramMediaPollOption(text: text, opaqueIdentifier: Array(String(index).utf8))
        }
        return TelegramMediaPoll(
            pollId: MediaId(namespace: Namespaces.Media.localPoll, id: Int64.random(in: 1...Int64.max)),
            publicity: publicVoters ? .public : .anonymous,
            kind: quizAnswer == nil ? .poll(multipleAnswers: multipleAnswers) : .quiz, text: question,
            options: options,
            correctAnswers: quizAnswer.flatMap { options.indices.contains($0) ? [options[$0].opaqueIdentifier] : nil },
            results: TelegramMediaPollResults(solution: solution.map { .init(text: $0) }))
    }
}

/// Voting in polls (core.telegram.org "Polls and quizzes", `messages.sendVote`, `messages.getPollResults`;
/// Telegram-iOS `TelegramCore/Sources/TelegramEngine/Messages/RequestMessageActionPollVote` and
/// `PollResults`). The answers' `updateMessagePoll` goes through the state manager like a push, which replaces the
/// stored poll (`MessagePollState`).
extension Account {
    /// Votes for the answers at `optionIndices` (none takes a poll vote back) in the poll of `messageId`; returns the
    /// poll as the server answered. `.server`: `MESSAGE_POLL_CLOSED`, `OPTION_INVALID`, `OPTIONS_TOO_MUCH`,
    /// `REVOTE_NOT_ALLOWED`, `MESSAGE_ID_INVALID`; `.unsupported` for a message without a poll or an index out of
    /// range.
    @discardableResult
    public func vote(_ messageId: MessageId, optionIndices: [Int]) async throws(PeerActionError) -> TelegramMediaPoll {
        let poll = try storedPoll(messageId)
        guard optionIndices.allSatisfy(poll.options.indices.contains) else {
            throw .unsupported("the poll has answers 1–\(poll.options.count)")
        }
        let peer = try storedInputPeer(messageId.peerId)
        let answer = try await peerActionRequest(
            Api.functions.messages.sendVote(
                peer: peer, msgId: messageId.id, options: optionIndices.map { poll.options[$0].opaqueIdentifier }))
        return try applyPollAnswer(answer, poll: poll)
    }

    /// Asks the server for the poll's results as they are now (`messages.getPollResults`, as Telegram-iOS does for
    /// the polls on screen: votes made while this account was away come in no difference) and stores them.
    @discardableResult
    public func refreshPollResults(_ messageId: MessageId) async throws(PeerActionError) -> TelegramMediaPoll {
        let poll = try storedPoll(messageId)
        let peer = try storedInputPeer(messageId.peerId)
        let answer = try await peerActionRequest(
            Api.functions.messages.getPollResults(peer: peer, msgId: messageId.id, pollHash: 0))
        return try applyPollAnswer(answer, poll: poll)
    }

    /// Stores an answer's `updateMessagePoll` now (so the caller reads the new results at once) and hands the
    /// answer to the state manager; returns the poll after it.
    private func applyPollAnswer(
        _ answer: Api.Updates, poll: TelegramMediaPoll
    ) throws(PeerActionError) -> TelegramMediaPoll {
        let pollId = poll.pollId
        try applyActionUpdates(answer)
        do {
            return try postbox.transactionSync { tx in
                for case .updateMessagePoll(let update) in Self.updates(in: answer) where update.pollId == pollId.id {
                    _ = try MessagePollState.apply(update, transaction: tx)
                }
                return try tx.getMedia(pollId) as? TelegramMediaPoll ?? poll
            }
        } catch {
            throw .storage("storing the poll's results: \(error)")
        }
    }

    /// The stored poll of `messageId`.
    private func storedPoll(_ messageId: MessageId) throws(PeerActionError) -> TelegramMediaPoll {
        guard messageId.namespace == Namespaces.Message.cloud else {
            throw .unsupported("\(messageId) is not a sent cloud message")
        }
        let message: Message?
        do { message = try postbox.readTransactionSync { tx in try tx.getMessage(messageId) } } catch {
            throw .storage("reading \(messageId): \(error)")
        }
        guard let poll = message?.media.lazy.compactMap({ $0 as? TelegramMediaPoll }).first else {
            throw .unsupported("message \(messageId.id) has no poll")
        }
        return poll
    }

    /// The updates an `Updates` carries.
    static func updates(in updates: Api.Updates) -> [Api.Update] {
        switch updates {
        case .updates(let value): return value.updates
        case .updatesCombined(let value): return value.updates
        case .updateShort(let value): return [value.update]
        default: return []
        }
    }
}
