import CryptoUtils
import ServerStore
import TLRuntime
import TelegramApi

/// Polls and quizzes (core.telegram.org "Polls and quizzes", constructors `inputMediaPoll`, `poll`, `pollResults`):
/// made from `inputMediaPoll`, stored once (`PollRecord`), and shown to each viewer with the results as they are now —
/// their own answers `chosen`, a quiz's right answer and solution only once they answered or the poll closed.
extension ServerBackend {
    /// Telegram's limits (core.telegram.org "Polls and quizzes"; Telegram-iOS `CreatePollController`: a question of up
    /// to 255 characters, answers of up to 100, 1–100 option bytes; app config `poll_answers_max`, 12 today — it was
    /// 10, which Telegram-iOS still assumes when the config says nothing; a solution of up to 200 characters with at
    /// most 2 line feeds; `close_period` 5–600 s).
    enum PollLimit {
        static let questionLength = 255
        static let answers = 2...12
        static let answerLength = 100
        static let optionBytes = 1...100
        static let solutionLength = 200
        static let solutionLineFeeds = 2
        static let closePeriod: ClosedRange<Int32> = 5...600
        /// The voters a poll's `recent_voters` names (public polls only), newest first.
        static let recentVoters = 3
    }

    /// A new poll from `inputMediaPoll`, stored, as the message's media (`messageMediaPoll` with no votes yet).
    /// `POLL_QUESTION_INVALID`, `POLL_ANSWERS_INVALID` (fewer than 2 or more than `poll_answers_max` answers),
    /// `POLL_ANSWER_INVALID` (an empty or too long answer), `POLL_OPTION_INVALID` (option bytes empty or over 100),
    /// `POLL_OPTION_DUPLICATE`, `QUIZ_CORRECT_ANSWERS_EMPTY`, `QUIZ_CORRECT_ANSWERS_TOO_MUCH` (a quiz has one right
    /// answer), `QUIZ_CORRECT_ANSWER_INVALID` (an index outside the answers, or right answers for a poll),
    /// `QUIZ_MULTIPLE_INVALID`; attached media, which tg-server does not keep, is `MEDIA_INVALID`.
    func makePoll(_ input: Api.InputMedia.Cons_inputMediaPoll, caller: Caller) throws -> Api.MessageMedia {
        guard case .poll(let poll) = input.poll else { throw APIError.badRequest("MEDIA_INVALID") }
        guard input.attachedMedia == nil, input.solutionMedia == nil else { throw APIError.badRequest("MEDIA_INVALID") }
        guard case .textWithEntities(let question) = poll.question,
            (1...PollLimit.questionLength).contains(question.text.utf16.count)
        else { throw APIError.badRequest("POLL_QUESTION_INVALID") }
        guard PollLimit.answers.contains(poll.answers.count) else { throw APIError.badRequest("POLL_ANSWERS_INVALID") }
        var answers: [Api.PollAnswer] = []
        for (index, answer) in poll.answers.enumerated() {
            let text: Api.TextWithEntities
            let option: [UInt8]
            switch answer {
            case .pollAnswer(let given):
                (text, option) = (given.text, given.option)
                guard given.media == nil else { throw APIError.badRequest("MEDIA_INVALID") }
            case .inputPollAnswer(let given):
                // An answer without option bytes gets its index (Telegram numbers them itself for these).
                (text, option) = (given.text, Array(String(index).utf8))
                guard given.media == nil else { throw APIError.badRequest("MEDIA_INVALID") }
            }
            guard case .textWithEntities(let body) = text, (1...PollLimit.answerLength).contains(body.text.utf16.count)
            else { throw APIError.badRequest("POLL_ANSWER_INVALID") }
            guard PollLimit.optionBytes.contains(option.count) else { throw APIError.badRequest("POLL_OPTION_INVALID") }
            answers.append(.pollAnswer(.init(text: text, option: option)))
        }
        let options = answers.compactMap { answer -> [UInt8]? in
            if case .pollAnswer(let answer) = answer { return answer.option }
            return nil
        }
        guard Set(options).count == options.count else { throw APIError.badRequest("POLL_OPTION_DUPLICATE") }
        let correct = (input.correctAnswers ?? []).map(Int.init)
        if poll.quiz {
            guard !poll.multipleChoice else { throw APIError.badRequest("QUIZ_MULTIPLE_INVALID") }
            guard !correct.isEmpty else { throw APIError.badRequest("QUIZ_CORRECT_ANSWERS_EMPTY") }
            guard correct.count == 1 else { throw APIError.badRequest("QUIZ_CORRECT_ANSWERS_TOO_MUCH") }
            guard correct.allSatisfy(answers.indices.contains) else {
                throw APIError.badRequest("QUIZ_CORRECT_ANSWER_INVALID")
            }
        } else if !correct.isEmpty || input.solution != nil {
            throw APIError.badRequest("QUIZ_CORRECT_ANSWER_INVALID")
        }
        if let solution = input.solution {
            guard solution.utf16.count <= PollLimit.solutionLength,
                solution.filter({ $0 == "\n" }).count <= PollLimit.solutionLineFeeds
            else { throw APIError.badRequest("MEDIA_INVALID") }
        }
        let date = now
        var closeDate: Int32?
        switch (poll.closePeriod, poll.closeDate) {
        case (nil, nil): break
        case (let period?, nil):
            guard PollLimit.closePeriod.contains(period) else { throw APIError.badRequest("MEDIA_INVALID") }
            closeDate = date + period
        case (nil, let close?):
            guard PollLimit.closePeriod.contains(close - date) else { throw APIError.badRequest("MEDIA_INVALID") }
            closeDate = close
        default:
            throw APIError.badRequest("MEDIA_INVALID")
        }
        let id = Self.randomId()
        let stored = Api.Poll.poll(
            .init(
                id: id, closed: poll.closed, publicVoters: poll.publicVoters, multipleChoice: poll.multipleChoice,
                quiz: poll.quiz, question: poll.question, answers: answers, closePeriod: poll.closePeriod,
                closeDate: closeDate, hash: id))
        let record = PollRecord(
            id: id, creator: caller.userId, poll: stored.serialized(), correct: correct, solution: input.solution,
            solutionEntities: Self.encodeEntities(input.solutionEntities), closed: poll.closed, closeDate: closeDate,
            date: date)
        try store.write { tx in try tx.insert(record) }
        return .messageMediaPoll(.init(poll: stored, results: .pollResults(.init(results: [], totalVoters: 0))))
    }

    /// Whether `input` is a poll whose voters everyone sees (`BROADCAST_PUBLIC_VOTERS_FORBIDDEN` in a broadcast
    /// channel, where no one may see who voted).
    static func isPublicPoll(_ input: Api.InputMedia) -> Bool {
        guard case .inputMediaPoll(let media) = input, case .poll(let poll) = media.poll else { return false }
        return poll.publicVoters
    }

    /// The poll of stored media bytes, when they hold one.
    static func pollId(ofMedia bytes: [UInt8]?) -> Int64? {
        guard let bytes, case .messageMediaPoll(let media)? = try? Api.MessageMedia(tlBytes: bytes),
            case .poll(let poll) = media.poll
        else { return nil }
        return poll.id
    }

    /// Stored media as `viewer` sees it now: a poll as it now is (closed or not) with its results for the viewer;
    /// anything else as stored. Without `tx`, as stored.
    func viewedMedia(_ bytes: [UInt8]?, viewer: Int64, tx: StoreTransaction?) -> Api.MessageMedia? {
        guard let bytes, let media = try? Api.MessageMedia(tlBytes: bytes) else { return nil }
        guard let tx, case .messageMediaPoll(let stored) = media, case .poll(let poll) = stored.poll,
            let record = try? tx.poll(id: poll.id), let votes = try? tx.pollVotes(pollId: poll.id)
        else { return media }
        return pollMedia(record, votes: votes, viewer: viewer)
    }

    /// `messageMediaPoll` for `viewer`.
    func pollMedia(_ record: PollRecord, votes: [PollVoteRecord], viewer: Int64) -> Api.MessageMedia {
        .messageMediaPoll(
            .init(poll: apiPoll(record), results: pollResults(record, votes: votes, viewer: viewer)))
    }

    /// The `Poll` as it now is: `closed` once its creator closed it or its close date passed.
    func apiPoll(_ record: PollRecord) -> Api.Poll {
        guard let poll = try? Api.Poll(tlBytes: record.poll), case .poll(let fields) = poll else {
            return .poll(
                .init(id: record.id, question: .textWithEntities(.init(text: "", entities: [])), answers: [], hash: 0))
        }
        guard record.isClosed(at: now), !fields.closed else { return poll }
        return Self.closed(fields)
    }

    /// `poll` with `closed` set.
    static func closed(_ poll: Api.Poll.Cons_poll) -> Api.Poll {
        .poll(
            .init(
                id: poll.id, closed: true, publicVoters: poll.publicVoters, multipleChoice: poll.multipleChoice,
                quiz: poll.quiz, question: poll.question, answers: poll.answers, closePeriod: poll.closePeriod,
                closeDate: poll.closeDate, hash: poll.hash))
    }

    /// The option bytes of each answer, in order.
    static func options(of poll: Api.Poll) -> [[UInt8]] {
        guard case .poll(let poll) = poll else { return [] }
        return poll.answers.compactMap { answer in
            if case .pollAnswer(let answer) = answer { return answer.option }
            return nil
        }
    }

    /// `pollResults` as `viewer` sees them (core.telegram.org `pollResults`, `pollAnswerVoters`): every answer's count;
    /// the viewer's answers `chosen`; a quiz's right answer `correct` and its solution once the viewer answered or the
    /// poll closed; in a public poll the newest voters.
    func pollResults(_ record: PollRecord, votes: [PollVoteRecord], viewer: Int64) -> Api.PollResults {
        let poll = apiPoll(record)
        guard case .poll(let fields) = poll else { return .pollResults(.init()) }
        let options = Self.options(of: poll)
        let mine = Set(votes.filter { $0.userId == viewer }.map(\.option))
        let revealed = !mine.isEmpty || record.isClosed(at: now)
        let results = options.enumerated().map { index, option in
            Api.PollAnswerVoters.pollAnswerVoters(
                .init(
                    chosen: mine.contains(option), correct: fields.quiz && revealed && record.correct.contains(index),
                    option: option, voters: Int32(votes.filter { $0.option == option }.count), recentVoters: []))
        }
        var voters: [Int64] = []
        for vote in votes.sorted(by: { ($0.date, $0.userId) > ($1.date, $1.userId) })
        where !voters.contains(vote.userId) {
            voters.append(vote.userId)
        }
        let solution = fields.quiz && revealed ? record.solution : nil
        return .pollResults(
            .init(
                results: results, totalVoters: Int32(Set(votes.map(\.userId)).count),
                recentVoters: fields.publicVoters
                    ? voters.prefix(PollLimit.recentVoters).map { .peerUser(.init(userId: $0)) } : nil,
                solution: solution,
                solutionEntities: solution == nil ? nil : Self.decodeEntities(record.solutionEntities) ?? []))
    }
}
