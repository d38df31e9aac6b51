import Foundation
import MTProtoServer
import ServerAPI
import ServerStore
import TLRuntime
import TelegramApi
import Testing

/// Polls and quizzes (core.telegram.org "Polls and quizzes"): `inputMediaPoll` with Telegram's limits and errors,
/// `messages.sendVote` with its rules, `updateMessagePoll` pushed to everyone who sees the poll with their own results,
/// `messages.getPollResults`, `messages.getPollVotes`, closing by editing, and a restart.
@Suite struct PollTests {
    typealias Harness = ServerBackendTests.Harness

    static func error(_ response: RPCResponse) -> String? { ServerBackendTests.error(response) }

    /// `inputMediaPoll` with `answers` (options "0", "1", …).
    static func poll(
        _ question: String = "Ăn gì?", _ answers: [String] = ["Phở", "Bún chả", "Bánh mì"], multiple: Bool = false,
        publicVoters: Bool = false, quiz: Bool = false, correct: [Int32]? = nil, solution: String? = nil,
        options: [[UInt8]]? = nil, closePeriod: Int32? = nil, closed: Bool = false
    ) -> Api.InputMedia {
        let answers = answers.enumerated().map { index, text in
            Api.PollAnswer.pollAnswer(
                .init(
                    text: .textWithEntities(.init(text: text, entities: [])),
                    option: options?[index] ?? Array(String(index).utf8)))
        }
        return .inputMediaPoll(
            .init(
                poll: .poll(
                    .init(
                        id: 0, closed: closed, publicVoters: publicVoters, multipleChoice: multiple, quiz: quiz,
                        question: .textWithEntities(.init(text: question, entities: [])), answers: answers,
                        closePeriod: closePeriod, hash: 0)),
                correctAnswers: correct, solution: solution, solutionEntities: solution == nil ? nil : []))
    }

    static func option(_ index: Int) -> [UInt8] { Array(String(index).utf8) }

    static func send(
        _ media: Api.InputMedia, to peer: Api.InputPeer, randomId: Int64
    ) -> Api.functions.messages.sendMedia {
        Api.functions.messages.sendMedia(peer: peer, media: media, message: "", randomId: randomId)
    }

    /// The `updateMessagePoll`s among `updates`.
    static func pollUpdates(_ updates: Api.Updates) -> [Api.Update.Cons_updateMessagePoll] {
        guard case .updates(let body) = updates else { return [] }
        return body.updates.compactMap {
            if case .updateMessagePoll(let update) = $0 { return update }
            return nil
        }
    }

    /// Each answer's (count, chosen, correct), and the solution.
    static func tally(_ results: Api.PollResults?) -> (rows: [(Int32, Bool, Bool)], total: Int32?, solution: String?) {
        guard case .pollResults(let body)? = results else { return ([], nil, nil) }
        let rows = (body.results ?? []).map { voters -> (Int32, Bool, Bool) in
            guard case .pollAnswerVoters(let v) = voters else { return (0, false, false) }
            return (v.voters ?? 0, v.chosen, v.correct)
        }
        return (rows, body.totalVoters, body.solution)
    }

    static func counts(_ results: Api.PollResults?) -> [Int32] { tally(results).rows.map(\.0) }
    static func chosen(_ results: Api.PollResults?) -> [Bool] { tally(results).rows.map(\.1) }
    static func correct(_ results: Api.PollResults?) -> [Bool] { tally(results).rows.map(\.2) }

    /// The poll media of message `id` among `messages`.
    static func pollMedia(in messages: [Api.Message], id: Int32) -> Api.MessageMedia.Cons_messageMediaPoll? {
        for case .message(let message) in messages where message.id == id {
            if case .messageMediaPoll(let poll)? = message.media { return poll }
        }
        return nil
    }

    /// The first message with a poll among `messages`, and its poll.
    static func firstPoll(in messages: [Api.Message]) -> (id: Int32, poll: Api.MessageMedia.Cons_messageMediaPoll)? {
        for case .message(let message) in messages {
            if case .messageMediaPoll(let poll)? = message.media { return (message.id, poll) }
        }
        return nil
    }

    /// The id of the new message an answer carries.
    static func newMessageId(_ updates: Api.Updates) -> Int32? {
        guard case .updates(let body) = updates else { return nil }
        for update in body.updates {
            switch update {
            case .updateNewMessage(let new): if case .message(let m) = new.message { return m.id }
            case .updateNewChannelMessage(let new): if case .message(let m) = new.message { return m.id }
            default: continue
            }
        }
        return nil
    }

    func vote(_ harness: Harness, key: Int64, peer: Api.InputPeer, id: Int32, _ options: [Int]) async -> RPCResponse {
        await harness.call(
            Api.functions.messages.sendVote(peer: peer, msgId: id, options: options.map(Self.option)), key: key, dc: 2)
    }

    /// Telegram's limits on what a poll may be, each with its error.
    @Test func pollsAreCheckedAsTelegramChecksThem() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let toBen = Api.InputPeer.inputPeerUser(.init(userId: ben.id, accessHash: ben.accessHash))
        let cases: [(Api.InputMedia, String)] = [
            (Self.poll("", ["a", "b"]), "POLL_QUESTION_INVALID"),
            (Self.poll(String(repeating: "q", count: 256), ["a", "b"]), "POLL_QUESTION_INVALID"),
            (Self.poll("Q", ["only"]), "POLL_ANSWERS_INVALID"),
            (Self.poll("Q", (0..<13).map { "\($0)" }), "POLL_ANSWERS_INVALID"),
            (Self.poll("Q", ["a", ""]), "POLL_ANSWER_INVALID"),
            (Self.poll("Q", ["a", String(repeating: "b", count: 101)]), "POLL_ANSWER_INVALID"),
            (Self.poll("Q", ["a", "b"], options: [[1], []]), "POLL_OPTION_INVALID"),
            (Self.poll("Q", ["a", "b"], options: [[1], [UInt8](repeating: 2, count: 101)]), "POLL_OPTION_INVALID"),
            (Self.poll("Q", ["a", "b"], options: [[1], [1]]), "POLL_OPTION_DUPLICATE"),
            (Self.poll("Q", ["a", "b"], quiz: true), "QUIZ_CORRECT_ANSWERS_EMPTY"),
            (Self.poll("Q", ["a", "b"], quiz: true, correct: [0, 1]), "QUIZ_CORRECT_ANSWERS_TOO_MUCH"),
            (Self.poll("Q", ["a", "b"], quiz: true, correct: [2]), "QUIZ_CORRECT_ANSWER_INVALID"),
            (Self.poll("Q", ["a", "b"], multiple: true, quiz: true, correct: [0]), "QUIZ_MULTIPLE_INVALID"),
            (Self.poll("Q", ["a", "b"], correct: [0]), "QUIZ_CORRECT_ANSWER_INVALID"),
        ]
        for (index, (media, expected)) in cases.enumerated() {
            let response = await harness.call(Self.send(media, to: toBen, randomId: Int64(100 + index)), key: 1, dc: 2)
            #expect(Self.error(response) == expected, "case \(index)")
        }
        // Twelve answers are fine (poll_answers_max).
        let twelve = await harness.call(
            Self.send(Self.poll("Q", (0..<12).map { "\($0)" }), to: toBen, randomId: 99), key: 1, dc: 2)
        #expect(Self.error(twelve) == nil)
    }

    /// A private chat: Ben votes twice in Ann's multiple-choice public poll; Ann gets `updateMessagePoll` pushed with
    /// the counts, Ben's answer marks his choice; Ann must vote before listing voters; a stranger is refused.
    @Test func aPrivatePollVotedOnBothSides() async throws {
        let harness = try Harness()
        let ann = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        _ = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        let toBen = Api.InputPeer.inputPeerUser(.init(userId: ben.id, accessHash: ben.accessHash))
        let toAnn = Api.InputPeer.inputPeerUser(.init(userId: ann.id, accessHash: ann.accessHash))
        let sent = try await harness.result(
            Self.send(Self.poll(multiple: true, publicVoters: true), to: toBen, randomId: 1), as: Api.Updates.self,
            key: 1, dc: 2)
        let annId = try #require(Self.newMessageId(sent))
        let benHistory = try await PinTests.history(harness, key: 2, peer: toAnn)
        let benId = try #require(
            benHistory.first.flatMap { message -> Int32? in
                if case .message(let m) = message { return m.id }
                return nil
            })
        let received = try #require(Self.pollMedia(in: benHistory, id: benId))
        guard case .poll(let fields) = received.poll else { Issue.record("no poll"); return }
        #expect(fields.id != 0 && fields.multipleChoice && fields.publicVoters && fields.answers.count == 3)
        #expect(Self.counts(received.results) == [0, 0, 0])
        let pushed = ChannelTests.Pushed()
        harness.updates.subscribe(.init(authKeyId: 1, sessionId: 1001), connection: ObjectIdentifier(pushed)) {
            bytes in pushed.add(1, bytes)
        }
        #expect(Self.error(await vote(harness, key: 2, peer: toAnn, id: benId, [7])) == "OPTION_INVALID")
        #expect(Self.error(await vote(harness, key: 2, peer: toAnn, id: benId, [0, 0])) == "OPTION_INVALID")
        #expect(Self.error(await vote(harness, key: 2, peer: toAnn, id: benId + 50, [0])) == "MESSAGE_ID_INVALID")
        let answer = await vote(harness, key: 2, peer: toAnn, id: benId, [0, 1])
        guard case .result(let bytes) = answer else { Issue.record("\(answer)"); return }
        let mine = try #require(Self.pollUpdates(try Api.Updates(tlBytes: bytes)).first)
        #expect(mine.pollId == fields.id && mine.msgId == benId)
        #expect(Self.counts(mine.results) == [1, 1, 0] && Self.chosen(mine.results) == [true, true, false])
        let annSaw = try #require(pushed.updates(for: 1).flatMap(Self.pollUpdates).last)
        #expect(annSaw.msgId == annId && Self.counts(annSaw.results) == [1, 1, 0])
        #expect(Self.chosen(annSaw.results) == [false, false, false] && Self.tally(annSaw.results).total == 1)
        // Voters are listed only after voting.
        let votes = Api.functions.messages.getPollVotes(peer: toBen, id: annId, limit: 10)
        #expect(Self.error(await harness.call(votes, key: 1, dc: 2)) == "POLL_VOTE_REQUIRED")
        #expect(Self.error(await vote(harness, key: 1, peer: toBen, id: annId, [2])) == nil)
        let list = try await harness.result(votes, as: Api.messages.VotesList.self, key: 1, dc: 2)
        guard case .votesList(let who) = list else { Issue.record("\(list)"); return }
        #expect(who.count == 2 && who.users.count == 2 && who.nextOffset == nil)
        #expect(
            who.votes.contains {
                if case .messagePeerVoteMultiple(let v) = $0 { return v.options.count == 2 }; return false
            })
        let firstPage = try await harness.result(
            Api.functions.messages.getPollVotes(peer: toBen, id: annId, limit: 1), as: Api.messages.VotesList.self,
            key: 1, dc: 2)
        if case .votesList(let page) = firstPage { #expect(page.votes.count == 1 && page.nextOffset == "1") }
        let onlyPho = try await harness.result(
            Api.functions.messages.getPollVotes(peer: toBen, id: annId, option: Self.option(0), limit: 10),
            as: Api.messages.VotesList.self, key: 1, dc: 2)
        if case .votesList(let page) = onlyPho { #expect(page.count == 1) }
        // The results and history as Ann sees them now.
        let results = try await harness.result(
            Api.functions.messages.getPollResults(peer: toBen, msgId: annId, pollHash: 0), as: Api.Updates.self,
            key: 1, dc: 2)
        let annResults = try #require(Self.pollUpdates(results).first)
        #expect(
            Self.counts(annResults.results) == [1, 1, 1] && Self.chosen(annResults.results) == [false, false, true])
        let annHistory = try await PinTests.history(harness, key: 1, peer: toBen)
        #expect(Self.chosen(Self.pollMedia(in: annHistory, id: annId)?.results) == [false, false, true])
        // Ben takes his vote back (a poll, not a quiz).
        #expect(Self.error(await vote(harness, key: 2, peer: toAnn, id: benId, [])) == nil)
        let after = try await harness.result(
            Api.functions.messages.getPollResults(peer: toAnn, msgId: benId, pollHash: 0), as: Api.Updates.self,
            key: 2, dc: 2)
        #expect(Self.counts(Self.pollUpdates(after).first?.results) == [0, 0, 1])
        // Cid has no such message: he can neither vote nor read the results.
        #expect(Self.error(await vote(harness, key: 3, peer: toAnn, id: benId, [0])) == "MESSAGE_ID_INVALID")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.getPollResults(peer: toAnn, msgId: benId, pollHash: 0), key: 3, dc: 2))
                == "MESSAGE_ID_INVALID")
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.getPollVotes(peer: toAnn, id: benId, limit: 10), key: 3, dc: 2))
                == "MSG_ID_INVALID")
    }

    /// A basic group's quiz: the right answer and solution show only after answering; no second answer; the creator
    /// closes it by editing (another member may not), and then no one votes.
    @Test func aGroupQuizRevealsItsAnswerAndCloses() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let cid = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        let chatId = try await harness.createGroup(
            "Quiz",
            members: [
                .inputUser(.init(userId: ben.id, accessHash: ben.accessHash)),
                .inputUser(.init(userId: cid.id, accessHash: cid.accessHash)),
            ], key: 1, dc: 2)
        let group = Api.InputPeer.inputPeerChat(.init(chatId: chatId))
        let sent = try await harness.result(
            Self.send(
                Self.poll(
                    "Where is phở from?", ["Huế", "Nam Định", "Sài Gòn"], quiz: true, correct: [1],
                    solution: "Nam Định, early 20th century"), to: group, randomId: 1),
            as: Api.Updates.self, key: 1, dc: 2)
        let annId = try #require(Self.newMessageId(sent))
        let benHistory = try await PinTests.history(harness, key: 2, peer: group)
        let (benId, before) = try #require(Self.firstPoll(in: benHistory))
        #expect(Self.correct(before.results) == [false, false, false] && Self.tally(before.results).solution == nil)
        let answer = await vote(harness, key: 2, peer: group, id: benId, [0])
        guard case .result(let bytes) = answer else { Issue.record("\(answer)"); return }
        let benResults = try #require(Self.pollUpdates(try Api.Updates(tlBytes: bytes)).first?.results)
        #expect(Self.correct(benResults) == [false, true, false] && Self.chosen(benResults) == [true, false, false])
        #expect(Self.tally(benResults).solution == "Nam Định, early 20th century")
        #expect(Self.error(await vote(harness, key: 2, peer: group, id: benId, [1])) == "REVOTE_NOT_ALLOWED")
        #expect(Self.error(await vote(harness, key: 2, peer: group, id: benId, [])) == "REVOTE_NOT_ALLOWED")
        // Cid has not answered: the counts, but no right answer or solution for him yet.
        let cidHistory = try await PinTests.history(harness, key: 3, peer: group)
        let (cidPollId, cidPoll) = try #require(Self.firstPoll(in: cidHistory))
        #expect(Self.counts(cidPoll.results) == [1, 0, 0] && Self.correct(cidPoll.results) == [false, false, false])
        #expect(Self.tally(cidPoll.results).solution == nil)
        // Closing: Ben did not send it; Ann did.
        let close = Api.functions.messages.editMessage(
            peer: group, id: benId,
            media: Self.poll("Where is phở from?", ["Huế", "Nam Định", "Sài Gòn"], quiz: true, closed: true))
        #expect(Self.error(await harness.call(close, key: 2, dc: 2)) == "MESSAGE_AUTHOR_REQUIRED")
        let closeAnn = Api.functions.messages.editMessage(
            peer: group, id: annId,
            media: Self.poll("Where is phở from?", ["Huế", "Nam Định", "Sài Gòn"], quiz: true, closed: true))
        let closed = try await harness.result(closeAnn, as: Api.Updates.self, key: 1, dc: 2)
        guard case .updates(let body) = closed, case .updateEditMessage(let edit)? = body.updates.first,
            case .message(let edited) = edit.message, case .messageMediaPoll(let closedPoll)? = edited.media,
            case .poll(let closedFields) = closedPoll.poll
        else { Issue.record("\(closed)"); return }
        #expect(closedFields.closed && Self.counts(closedPoll.results) == [1, 0, 0])
        // Once closed, everyone sees the right answer, and no one votes.
        #expect(Self.correct(closedPoll.results) == [false, true, false])
        #expect(Self.error(await harness.call(closeAnn, key: 1, dc: 2)) == "MESSAGE_NOT_MODIFIED")
        #expect(Self.error(await vote(harness, key: 3, peer: group, id: cidPollId, [1])) == "MESSAGE_POLL_CLOSED")
    }

    /// A broadcast channel: no public voters; a subscriber's vote reaches the others pushed; no voter list.
    @Test func aChannelPollIsAnonymous() async throws {
        let harness = try Harness()
        _ = try await harness.signUp("9996620001", name: "Ann", key: 1, dc: 2)
        let ben = try await harness.signUp("9996620002", name: "Ben", key: 2, dc: 2)
        let cid = try await harness.signUp("9996620003", name: "Cid", key: 3, dc: 2)
        _ = try await harness.signUp("9996620004", name: "Dao", key: 4, dc: 2)
        let channel = try await ChannelTests.create(harness, key: 1, megagroup: false)
        #expect(await ChannelTests.invite(harness, key: 1, channel, [ben, cid]) == nil)
        #expect(
            Self.error(
                await harness.call(
                    Self.send(Self.poll(publicVoters: true), to: channel.peer, randomId: 1), key: 1, dc: 2))
                == "BROADCAST_PUBLIC_VOTERS_FORBIDDEN")
        let sent = try await harness.result(
            Self.send(Self.poll(), to: channel.peer, randomId: 2), as: Api.Updates.self, key: 1, dc: 2)
        let postId = try #require(Self.newMessageId(sent))
        let (benChannel, _) = try #require(try await ChannelTests.fromDialogs(harness, key: 2, id: channel.id))
        let pushed = ChannelTests.Pushed()
        harness.updates.subscribe(.init(authKeyId: 3, sessionId: 1003), connection: ObjectIdentifier(pushed)) {
            bytes in pushed.add(3, bytes)
        }
        #expect(Self.error(await vote(harness, key: 2, peer: benChannel.peer, id: postId, [2])) == nil)
        let cidSaw = try #require(pushed.updates(for: 3).flatMap(Self.pollUpdates).last)
        #expect(Self.counts(cidSaw.results) == [0, 0, 1] && Self.chosen(cidSaw.results) == [false, false, false])
        #expect(
            Self.error(
                await harness.call(
                    Api.functions.messages.getPollVotes(peer: benChannel.peer, id: postId, limit: 10), key: 2, dc: 2))
                == "BROADCAST_FORBIDDEN")
        let history = try await PinTests.history(harness, key: 2, peer: benChannel.peer)
        #expect(Self.chosen(Self.pollMedia(in: history, id: postId)?.results) == [false, false, true])
        // Dao is no member of the private channel.
        let daoPeer = Api.InputPeer.inputPeerChannel(.init(channelId: channel.id, accessHash: channel.accessHash))
        #expect(Self.error(await vote(harness, key: 4, peer: daoPeer, id: postId, [0])) == "CHANNEL_INVALID")
    }

    /// Votes and a closed poll live in the database; a poll with `close_period` closes by itself.
    @Test func pollsSurviveARestartAndCloseOnTime() throws {
        let harness = try AttackHarness()
        let ann = try harness.signUp("9996620001", name: "Ann", key: 1)
        let ben = try harness.signUp("9996620002", name: "Ben", key: 2)
        #expect(harness.error(Self.send(Self.poll(closePeriod: 60), to: ben.inputPeer, randomId: 1), key: 1) == nil)
        #expect(
            harness.error(
                Api.functions.messages.sendVote(peer: ann.inputPeer, msgId: 1, options: [Self.option(1)]), key: 2)
                == nil)
        try harness.restart()
        let results = try harness.result(
            Api.functions.messages.getPollResults(peer: ann.inputPeer, msgId: 1, pollHash: 0), as: Api.Updates.self,
            key: 2)
        let update = try #require(Self.pollUpdates(results).first)
        #expect(Self.counts(update.results) == [0, 1, 0] && Self.chosen(update.results) == [false, true, false])
        harness.clock.advance(61)
        #expect(
            harness.error(
                Api.functions.messages.sendVote(peer: ann.inputPeer, msgId: 1, options: [Self.option(0)]), key: 2)
                == "MESSAGE_POLL_CLOSED")
        let closed = try harness.result(
            Api.functions.messages.getPollResults(peer: ann.inputPeer, msgId: 1, pollHash: 0), as: Api.Updates.self,
            key: 2)
        if case .poll(let poll)? = Self.pollUpdates(closed).first?.poll {
            #expect(poll.closed)
        } else {
            Issue.record("no poll")
        }
    }
}
