import ServerStore
import TLRuntime
import TelegramApi

/// Voting and results (core.telegram.org "Polls and quizzes": methods `messages.sendVote`, `messages.getPollResults`,
/// `messages.getPollVotes`; constructor `updateMessagePoll`, which has no pts and goes to every session of everyone
/// who sees the poll, each with their own results). A poll is reached through a message the caller has: a copy in
/// their box, or a post of a channel they may read — a stranger gets `MESSAGE_ID_INVALID` (`CHANNEL_PRIVATE` in a
/// private channel).
extension ServerBackend {
    /// Where a poll is seen from: the caller's copy of a private-chat or group message, or a channel's message.
    enum PollPlace {
        case box(MessageRecord)
        case channel(ChannelAccess, ChannelMessageRecord)
    }

    /// The message `msgId` of `peer` and its poll, as the caller may reach them; `missing` when there is no such
    /// message or it holds no poll.
    func pollPlace(
        _ peer: Api.InputPeer, msgId: Int32, caller: Caller, need: ChannelNeed, missing: APIError,
        tx: StoreTransaction
    ) throws -> (place: PollPlace, poll: PollRecord) {
        let place: PollPlace
        let media: [UInt8]?
        if let access = try channelAccess(peer, caller: caller, need: need, tx: tx) {
            guard let message = try tx.channelMessage(channelId: access.channel.id, id: Int64(msgId)) else {
                throw missing
            }
            (place, media) = (.channel(access, message), message.media)
        } else {
            let peer = try resolve(peer, caller: caller, tx: tx)
            guard let message = try tx.message(owner: caller.userId, id: Int64(msgId)), message.peer == peer else {
                throw missing
            }
            (place, media) = (.box(message), message.media)
        }
        guard let pollId = Self.pollId(ofMedia: media), let poll = try tx.poll(id: pollId) else { throw missing }
        return (place, poll)
    }

    /// `messages.sendVote`: the caller's answers become `options` (none takes the vote back). `MESSAGE_POLL_CLOSED`;
    /// `OPTION_INVALID` for bytes that are no answer of the poll or an answer twice; `OPTIONS_TOO_MUCH` for several
    /// answers to a single-answer poll; `REVOTE_NOT_ALLOWED` for a quiz (or a poll with `revoting_disabled`) already
    /// answered. Answered with `updateMessagePoll`; everyone who sees the poll gets one with their own results.
    func sendVote(_ call: Api.functions.messages.sendVote, caller: Caller) throws -> Api.Updates {
        let date = now
        var pushes: [Push] = []
        return try store.write(
            { [self] tx throws -> Api.Updates in
                let (place, record) = try pollPlace(
                    call.peer, msgId: call.msgId, caller: caller, need: .member, missing: .messageIdInvalid, tx: tx)
                guard !record.isClosed(at: date) else { throw APIError.badRequest("MESSAGE_POLL_CLOSED") }
                let poll = apiPoll(record)
                guard case .poll(let fields) = poll else { throw APIError.internalError }
                let options = Self.options(of: poll)
                guard Set(call.options).count == call.options.count, call.options.allSatisfy(options.contains) else {
                    throw APIError.badRequest("OPTION_INVALID")
                }
                guard call.options.count <= 1 || fields.multipleChoice else {
                    throw APIError.badRequest("OPTIONS_TOO_MUCH")
                }
                let before = try tx.pollVotes(pollId: record.id)
                if before.contains(where: { $0.userId == caller.userId }), fields.quiz || fields.revotingDisabled {
                    throw APIError.badRequest("REVOTE_NOT_ALLOWED")
                }
                try tx.setPollVote(pollId: record.id, userId: caller.userId, options: call.options, date: date)
                let votes = try tx.pollVotes(pollId: record.id)
                let answer: Api.Updates
                (answer, pushes) = try pollUpdates(
                    place, record: record, votes: votes, caller: caller, date: date, tx: tx)
                return answer
            }, then: { [self] _ in send(pushes, caller: caller) })
    }

    /// `messages.getPollResults`: the poll's results as the caller sees them now, as `updateMessagePoll` (also when
    /// `poll_hash` matches: tg-server's results carry no hash of their own).
    func getPollResults(_ call: Api.functions.messages.getPollResults, caller: Caller) throws -> Api.Updates {
        try store.read { [self] tx throws -> Api.Updates in
            let (place, record) = try pollPlace(
                call.peer, msgId: call.msgId, caller: caller, need: .read, missing: .messageIdInvalid, tx: tx)
            return try pollUpdates(
                place, record: record, votes: try tx.pollVotes(pollId: record.id), caller: caller, date: now,
                tx: tx, pushing: false
            ).answer
        }
    }

    /// The answer for the caller and the pushes for everyone else who sees the poll (`updateMessagePoll`).
    private func pollUpdates(
        _ place: PollPlace, record: PollRecord, votes: [PollVoteRecord], caller: Caller, date: Int32,
        tx: StoreTransaction, pushing: Bool = true
    ) throws -> (answer: Api.Updates, pushes: [Push]) {
        let poll = apiPoll(record)
        let voterIds: Set<Int64> = {
            guard case .pollResults(let results) = pollResults(record, votes: votes, viewer: 0) else { return [] }
            return Set(
                (results.recentVoters ?? []).compactMap { peer in
                    if case .peerUser(let user) = peer { return user.userId }
                    return nil
                })
        }()
        let update = { [self] (peer: Api.Peer, msgId: Int64, viewer: Int64) -> Api.Update in
            .updateMessagePoll(
                .init(
                    peer: peer, msgId: Int32(truncatingIfNeeded: msgId), pollId: record.id, poll: poll,
                    results: pollResults(record, votes: votes, viewer: viewer)))
        }
        switch place {
        case .box(let message):
            var answer: Api.Updates?
            var pushes: [Push] = []
            let copies = pushing ? try tx.copies(globalId: message.globalId) : [message]
            for copy in copies {
                let (users, chats) = try participants(
                    of: [copy], viewer: copy.owner, extraUsers: Array(voterIds), tx: tx)
                let updates = Api.Updates.updates(
                    .init(
                        updates: [update(apiPeer(copy.peer), copy.id, copy.owner)], users: users, chats: chats,
                        date: date, seq: 0))
                if copy.owner == caller.userId { answer = updates }
                if pushing { pushes.append(Push(authKeyIds: try authKeys(of: copy.owner, tx: tx), updates: updates)) }
            }
            guard let answer else { throw APIError.internalError }
            return (answer, pushes)
        case .channel(let access, let message):
            let peer = Api.Peer.peerChannel(.init(channelId: access.channel.id))
            let pushes =
                pushing
                ? try channelPushes(access.channel, userIds: voterIds, date: date, tx: tx) { viewer in
                    [update(peer, message.id, viewer)]
                } : []
            let answer = Api.Updates.updates(
                .init(
                    updates: [update(peer, message.id, caller.userId)],
                    users: try apiUsers(voterIds.union([caller.userId]), viewer: caller.userId, tx: tx),
                    chats: [try apiChannel(access.channel, member: access.member, viewer: caller.userId, tx: tx)],
                    date: date, seq: 0))
            return (answer, pushes)
        }
    }

    /// The most votes one `messages.getPollVotes` page holds.
    static let pollVotesPageLimit = 50

    /// `messages.getPollVotes`: who voted for what in a public poll, newest first, `limit` (at most 50) from `offset`
    /// (the position after the previous page, in `next_offset`); with `option`, that answer's voters only.
    /// `BROADCAST_FORBIDDEN` in a broadcast channel, `POLL_VOTE_REQUIRED` before the caller voted in an open poll,
    /// `MSG_ID_INVALID` for a message without a public poll, `OPTION_INVALID` for bytes that are no answer.
    func getPollVotes(_ call: Api.functions.messages.getPollVotes, caller: Caller) throws -> Api.messages.VotesList {
        try store.read { [self] tx throws -> Api.messages.VotesList in
            let missing = APIError.badRequest("MSG_ID_INVALID")
            let (place, record) = try pollPlace(
                call.peer, msgId: call.id, caller: caller, need: .read, missing: missing, tx: tx)
            if case .channel(let access, _) = place, access.channel.broadcast {
                throw APIError.forbidden("BROADCAST_FORBIDDEN")
            }
            let poll = apiPoll(record)
            guard case .poll(let fields) = poll, fields.publicVoters else { throw missing }
            let votes = try tx.pollVotes(pollId: record.id)
            guard votes.contains(where: { $0.userId == caller.userId }) || record.isClosed(at: now) else {
                throw APIError.forbidden("POLL_VOTE_REQUIRED")
            }
            if let option = call.option, !Self.options(of: poll).contains(option) {
                throw APIError.badRequest("OPTION_INVALID")
            }
            // One entry per voter (all their answers), or per vote for one answer; newest first.
            var entries: [(userId: Int64, options: [[UInt8]], date: Int32)] = []
            for vote in votes.sorted(by: { ($0.date, $0.userId) > ($1.date, $1.userId) }) {
                if let option = call.option, vote.option != option { continue }
                if let index = entries.firstIndex(where: { $0.userId == vote.userId }) {
                    entries[index].options.append(vote.option)
                } else {
                    entries.append((vote.userId, [vote.option], vote.date))
                }
            }
            let start = min(max(Int(call.offset ?? "") ?? 0, 0), entries.count)
            let limit = min(max(Int(call.limit), 1), Self.pollVotesPageLimit)
            let page = entries[start..<min(start + limit, entries.count)]
            let next = start + page.count < entries.count ? String(start + page.count) : nil
            let apiVotes = page.map { entry -> Api.MessagePeerVote in
                let peer = Api.Peer.peerUser(.init(userId: entry.userId))
                if entry.options.count == 1 {
                    return .messagePeerVote(.init(peer: peer, option: entry.options[0], date: entry.date))
                }
                return .messagePeerVoteMultiple(.init(peer: peer, options: entry.options, date: entry.date))
            }
            return .votesList(
                .init(
                    count: Int32(entries.count), votes: apiVotes, chats: [],
                    users: try apiUsers(page.map(\.userId), viewer: caller.userId, tx: tx), nextOffset: next))
        }
    }
}
