import ArgumentParser
import Foundation
import Postbox
import SyncCore
import TelegramClient
import TelegramCore

/// Voting in a poll (TelegramClient's `PollCommands.vote` over TelegramCore's `Account.vote`).
struct Vote: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Vote in a poll: the answers by number, as 'tg history' lists them (or --retract).",
        discussion: """
            messages.sendVote: everyone who sees the poll gets the new results (updateMessagePoll). One answer unless \
            the poll takes several; a quiz takes one answer once (REVOTE_NOT_ALLOWED, exit 6); a closed poll takes \
            none (MESSAGE_POLL_CLOSED, exit 6). Prints the poll with each answer's votes, ours marked ● (a quiz's \
            right answer ✓, a wrong one of ours ✗), or with --json {"chat", "id", "poll": {"question", "options": \
            [{"text", "voters", "chosen", "correct"}], "totalVoters", "closed", "quiz", "multiple", "publicVoters", \
            "solution"}}.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The chat: @username, +phone, user:ID, chat:ID, channel:ID or its name.") var peer: String
    @Argument(help: "The poll's message id (as 'tg history' shows it).") var id: Int32
    @Argument(help: "The answers' numbers, from 1.") var answers: [Int] = []
    @Flag(help: "Take your vote back (not in a quiz).") var retract = false

    func validate() throws {
        if retract && !answers.isEmpty { throw ValidationError("--retract takes no answers") }
        if !retract && answers.isEmpty { throw ValidationError("give the answers' numbers, or --retract") }
        if answers.contains(where: { $0 < 1 }) { throw ValidationError("answers are numbered from 1") }
    }

    func run() async throws {
        let (chat, poll) = try await global.withOnlineAccount { _, account in
            let peerId = try await resolvePeer(peer, account)
            let poll = try await PollCommands.vote(account, peerId, id: id, answers: answers)
            return (PeerResolver.handle(peerId), poll)
        }
        if output.json { return try Output.json(VoteOutput(chat: chat, id: id, poll: poll)) }
        print(poll.label)
    }

    /// `tg vote --json`.
    struct VoteOutput: Encodable {
        var chat: String
        var id: Int32
        var poll: PollSummary
    }
}

/// `tg send`'s places, contacts, dice and polls.
extension Send {
    /// How many of `--location`, `--contact`, `--dice`, `--poll` were given.
    var cardOptions: Int {
        [location != nil, !contact.isEmpty, dice != nil, !poll.isEmpty].filter { $0 }.count
    }

    func validateCards() throws {
        if let location, PollCommands.coordinates(location) == nil {
            throw ValidationError("--location takes LAT,LONG in degrees, e.g. 21.0285,105.8542, not \(location)")
        }
        if location == nil && (venue != nil || address != nil || live != nil) {
            throw ValidationError("--venue, --address and --live go with --location")
        }
        if venue == nil && address != nil { throw ValidationError("--address goes with --venue") }
        if let live, !(60...86_400).contains(live) { throw ValidationError("--live takes 60 to 86400 seconds") }
        if !contact.isEmpty && !(2...3).contains(contact.count) {
            throw ValidationError("--contact takes PHONE FIRST [LAST]")
        }
        if let dice, !PollCommands.dice.contains(dice) {
            throw ValidationError("--dice takes one of \(PollCommands.dice.joined(separator: " "))")
        }
        if poll.isEmpty && (multiple || quiz != nil || publicVoters || solution != nil) {
            throw ValidationError("--multiple, --quiz, --public and --solution go with --poll")
        }
        if !poll.isEmpty {
            if !(3...13).contains(poll.count) {
                throw ValidationError("--poll takes the question and 2 to 12 answers")
            }
            if let quiz, !(1..<poll.count).contains(quiz) {
                throw ValidationError("--quiz names the right answer by number, 1 to \(poll.count - 1)")
            }
            if quiz != nil && multiple { throw ValidationError("a quiz takes one answer: no --multiple") }
            if solution != nil && quiz == nil { throw ValidationError("--solution goes with --quiz") }
        }
    }

    /// The place, contact, die or poll to send, and a word for it; `nil` when none was given.
    func cardMedia() -> (media: any Media, label: String)? {
        if let location, let point = PollCommands.coordinates(location) {
            let map = TelegramMediaMap(
                latitude: point.latitude, longitude: point.longitude,
                venue: venue.map { MapVenue(title: $0, address: address ?? "") }, liveBroadcastingTimeout: live)
            return (map, venue != nil ? "venue" : live != nil ? "live location" : "location")
        }
        if contact.count >= 2 {
            return (
                TelegramMediaContact(
                    firstName: contact[1], lastName: contact.count > 2 ? contact[2] : "", phoneNumber: contact[0],
                    peerId: nil, vCardData: nil), "contact"
            )
        }
        if let dice { return (TelegramMediaDice(emoji: dice), "dice") }
        if let question = poll.first {
            return (
                TelegramMediaPoll.outgoing(
                    question: question, answers: Array(poll.dropFirst()), multipleAnswers: multiple,
                    publicVoters: publicVoters, quizAnswer: quiz.map { $0 - 1 }, solution: solution),
                quiz == nil ? "poll" : "quiz"
            )
        }
        return nil
    }
}
