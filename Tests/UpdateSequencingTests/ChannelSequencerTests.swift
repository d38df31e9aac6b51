import TelegramApi
import Testing
import UpdateSequencing

/// Each channel's own pts (core.telegram.org "Working with updates", channels), through `UpdateSequencer`: in order,
/// repeats, gaps filled or fetched with `updates.getChannelDifference`, `final: false`, too long, two channels apart,
/// and the common pts untouched.
@Suite struct ChannelSequencerTests {
    static let me: Int64 = 1
    static let channel: Int64 = 700
    static let other: Int64 = 800

    static func post(_ id: Int32, channel: Int64 = channel) -> Api.Message {
        .message(.init(post: true, id: id, peerId: .peerChannel(.init(channelId: channel)), date: 100 + id, message: "p\(id)"))
    }

    static func newPost(_ id: Int32, pts: Int32, count: Int32 = 1, channel: Int64 = channel) -> Api.Updates {
        .updateShort(.init(update: .updateNewChannelMessage(.init(message: post(id, channel: channel), pts: pts, ptsCount: count)), date: 100))
    }

    static func machine(pts: Int32? = 10, common: Int32 = 50) -> UpdateSequencer {
        var machine = UpdateSequencer(
            state: .init(pts: common, qts: 0, seq: 0, date: 0), selfUserId: me, configuration: .init(gapWait: 2))
        machine.seedChannel(channel, pts: pts)
        return machine
    }

    /// (channel, id) of every channel message applied, in order.
    static func applied(_ actions: [UpdateSequencer.Action]) -> [Int32] {
        actions.flatMap { action -> [Int32] in
            guard case .apply(let batch) = action else { return [] }
            return batch.entries.compactMap { entry -> Int32? in
                let message: Api.Message
                switch entry {
                case .update(.updateNewChannelMessage(let u)): message = u.message
                case .newMessage(let m): message = m
                default: return nil
                }
                if case .message(let m) = message { return m.id }
                return nil
            }
        }
    }

    static func channelStates(_ actions: [UpdateSequencer.Action]) -> [Int64: Int32] {
        var result: [Int64: Int32] = [:]
        for case .apply(let batch) in actions { result.merge(batch.channelStates) { $1 } }
        return result
    }

    static func fetches(_ actions: [UpdateSequencer.Action]) -> [[Int64]] {
        actions.compactMap { action in
            if case .fetchChannelDifference(let channel, let pts) = action { return [channel, Int64(pts)] }
            return nil
        }
    }

    static func wakes(_ actions: [UpdateSequencer.Action]) -> [Double] {
        actions.compactMap { if case .wake(let time) = $0 { return time }; return nil }
    }

    static func difference(
        _ ids: [Int32], pts: Int32, final: Bool = true, others: [Api.Update] = [], channel: Int64 = channel
    ) -> Api.updates.ChannelDifference {
        .channelDifference(.init(final: final, pts: pts, newMessages: ids.map { post($0, channel: channel) }, otherUpdates: others, chats: [], users: []))
    }

    @Test func inOrderAppliesAndRepeatsAreSkipped() {
        var machine = Self.machine()
        let first = machine.receive(Self.newPost(1, pts: 11), now: 0)
        #expect(Self.applied(first) == [1])
        #expect(Self.channelStates(first) == [Self.channel: 11])
        #expect(Self.applied(machine.receive(Self.newPost(2, pts: 13, count: 2), now: 0)) == [2])
        #expect(machine.receive(Self.newPost(1, pts: 11), now: 0).isEmpty, "a repeat changes nothing")
        #expect(machine.channels.pts(of: Self.channel) == 13 && machine.channels.phase(of: Self.channel) == .ready)
        #expect(machine.state.pts == 50, "the common pts is untouched")
    }

    @Test func aGapWaitsAndItsMissingUpdateAppliesBothInOneBatch() {
        var machine = Self.machine()
        let early = machine.receive(Self.newPost(2, pts: 12), now: 5)
        #expect(Self.applied(early).isEmpty)
        #expect(Self.wakes(early) == [7])
        #expect(machine.channels.phase(of: Self.channel) == .waitingForGap(deadline: 7))
        let filled = machine.receive(Self.newPost(1, pts: 11), now: 6)
        #expect(Self.applied(filled) == [1, 2])
        #expect(filled.filter { if case .apply = $0 { true } else { false } }.count == 1)
        #expect(Self.channelStates(filled) == [Self.channel: 12])
        #expect(machine.channels.phase(of: Self.channel) == .ready)
        #expect(machine.tick(now: 7).isEmpty, "the wake-up finds nothing to do")
    }

    @Test func aGapStillOpenFetchesTheChannelDifferenceAndHoldsWhatComesMeanwhile() throws {
        var machine = Self.machine()
        _ = machine.receive(Self.newPost(3, pts: 13), now: 0)
        #expect(Self.fetches(machine.tick(now: 1.9)).isEmpty)
        let tick = machine.tick(now: 2)
        #expect(Self.fetches(tick) == [[Self.channel, 10]])
        #expect(machine.channels.phase(of: Self.channel) == .fetchingDifference)
        // Arriving during the fetch: held even though it would fit after the difference.
        #expect(Self.applied(machine.receive(Self.newPost(4, pts: 14), now: 2.5)).isEmpty)
        #expect(machine.channels.heldCount(of: Self.channel) == 2)
        let applied = machine.receiveChannelDifference(channelId: Self.channel, Self.difference([1, 2, 3], pts: 13), now: 3)
        #expect(Self.applied(applied) == [1, 2, 3, 4], "3 is skipped as covered, 4 then applies")
        #expect(Self.channelStates(applied) == [Self.channel: 14])
        #expect(machine.channels.phase(of: Self.channel) == .ready && machine.channels.heldCount(of: Self.channel) == 0)
        #expect(machine.state.pts == 50)
        // An answer nobody asked for is ignored.
        #expect(machine.receiveChannelDifference(channelId: Self.channel, Self.difference([9], pts: 99), now: 4).isEmpty)
    }

    @Test func aDifferenceThatIsNotFinalIsFetchedAgain() throws {
        var machine = Self.machine()
        #expect(Self.fetches(machine.receive(.updateShort(.init(update: .updateChannelTooLong(.init(channelId: Self.channel)), date: 1)), now: 0)) == [[Self.channel, 10]])
        let first = machine.receiveChannelDifference(channelId: Self.channel, Self.difference([1, 2], pts: 12, final: false), now: 1)
        #expect(Self.applied(first) == [1, 2])
        #expect(Self.fetches(first) == [[Self.channel, 12]])
        #expect(machine.channels.phase(of: Self.channel) == .fetchingDifference)
        let last = machine.receiveChannelDifference(channelId: Self.channel, .channelDifferenceEmpty(.init(final: true, pts: 12)), now: 2)
        #expect(Self.fetches(last).isEmpty)
        #expect(machine.channels.phase(of: Self.channel) == .ready && machine.channels.pts(of: Self.channel) == 12)
        // A failed fetch asks again from the same pts.
        _ = machine.receive(Self.newPost(5, pts: 15), now: 3)
        _ = machine.tick(now: 5)
        #expect(Self.fetches(machine.channelDifferenceFailed(channelId: Self.channel, now: 6)) == [[Self.channel, 12]])
    }

    /// The shell asks for a channel's next slice as soon as an answer arrives (`nextChannelSlicePts`): whenever it
    /// names a pts, the machine, taking the same answer, asks for that very slice; where it names none, the machine
    /// asks for no slice or for one the shell leaves to it.
    @Test func theSliceAskedAheadIsTheOneTheMachineAsksFor() throws {
        let dialog = Api.Dialog.dialog(
            .init(peer: .peerChannel(.init(channelId: Self.channel)), topMessage: 30, readInboxMaxId: 0, readOutboxMaxId: 0,
                  unreadCount: 0, unreadMentionsCount: 0, unreadReactionsCount: 0, unreadPollVotesCount: 0,
                  notifySettings: .peerNotifySettings(.init()), pts: 30))
        let answers: [Api.updates.ChannelDifference] = [
            Self.difference([1, 2], pts: 12, final: false), Self.difference([1, 2], pts: 12, final: true),
            Self.difference([], pts: 10, final: false), Self.difference([1], pts: 40, final: false),
            .channelDifferenceEmpty(.init(final: false, pts: 10)), .channelDifferenceEmpty(.init(final: true, pts: 10)),
            .channelDifferenceTooLong(.init(final: false, dialog: dialog, messages: [Self.post(30)], chats: [], users: [])),
            .channelDifferenceTooLong(.init(final: true, dialog: dialog, messages: [Self.post(30)], chats: [], users: [])),
        ]
        var asked = 0
        for answer in answers {
            var machine = Self.machine()
            _ = machine.receive(.updateShort(.init(update: .updateChannelTooLong(.init(channelId: Self.channel)), date: 1)), now: 0)
            let fetches = Self.fetches(machine.receiveChannelDifference(channelId: Self.channel, answer, now: 1))
            if let ahead = UpdateSequencer.nextChannelSlicePts(after: answer) {
                #expect(fetches == [[Self.channel, Int64(ahead)]], "\(answer)")
                asked += 1
            } else if case .channelDifference(let slice) = answer {
                #expect(slice.final && fetches.isEmpty, "\(answer)")
            }
        }
        #expect(asked == 3)
    }

    /// `updateChannelTooLong` with a pts the channel already has (a difference naming it again within the same second,
    /// or the check after a catch-up) asks for nothing; with a newer pts, or none, it fetches.
    @Test func tooLongWithAPtsAlreadyReachedFetchesNothing() throws {
        var machine = Self.machine()
        let named = { (pts: Int32?) in
            Api.Updates.updateShort(.init(update: .updateChannelTooLong(.init(channelId: Self.channel, pts: pts)), date: 1))
        }
        #expect(Self.fetches(machine.receive(named(10), now: 0)).isEmpty)
        #expect(Self.fetches(machine.receive(named(9), now: 0)).isEmpty)
        #expect(machine.channels.phase(of: Self.channel) == .ready)
        #expect(Self.fetches(machine.receive(named(11), now: 0)) == [[Self.channel, 10]])
        var again = Self.machine()
        #expect(Self.fetches(again.receive(named(nil), now: 0)) == [[Self.channel, 10]])
    }

    @Test func tooLongStoresTheNewestAndContinuesFromTheDialogsPts() throws {
        var machine = Self.machine()
        _ = machine.receive(Self.newPost(900, pts: 900), now: 0)
        _ = machine.tick(now: 2)
        let dialog = Api.Dialog.dialog(
            .init(peer: .peerChannel(.init(channelId: Self.channel)), topMessage: 901, readInboxMaxId: 880, readOutboxMaxId: 0,
                  unreadCount: 21, unreadMentionsCount: 0, unreadReactionsCount: 0, unreadPollVotesCount: 0,
                  notifySettings: .peerNotifySettings(.init()), pts: 901))
        let actions = machine.receiveChannelDifference(
            channelId: Self.channel,
            .channelDifferenceTooLong(.init(final: true, dialog: dialog, messages: [Self.post(901), Self.post(900)], chats: [], users: [])),
            now: 3)
        let batch = try #require(actions.compactMap { if case .apply(let b) = $0 { b } else { nil } }.first)
        guard case .channelTooLong(let channel, _, let messages)? = batch.entries.first else {
            Issue.record("expected channelTooLong first, got \(batch.entries)")
            return
        }
        #expect(channel == Self.channel && messages.count == 2)
        #expect(batch.entries.count == 1, "the held 900 is covered by the reset")
        #expect(batch.channelStates == [Self.channel: 901])
        #expect(machine.channels.pts(of: Self.channel) == 901 && machine.channels.phase(of: Self.channel) == .ready)
        #expect(Self.applied(machine.receive(Self.newPost(902, pts: 902), now: 4)) == [902])
    }

    @Test func twoChannelsGapsAreIndependentAndTheCommonPtsIsUntouched() throws {
        var machine = Self.machine()
        machine.seedChannel(Self.other, pts: 100)
        // Channel A: gap at t=1 (deadline 3). Channel B: gap at t=2 (deadline 4) — the wake-up stays at the earliest.
        #expect(Self.wakes(machine.receive(Self.newPost(3, pts: 13), now: 1)) == [3])
        #expect(Self.wakes(machine.receive(Self.newPost(3, pts: 103, channel: Self.other), now: 2)) == [3])
        // B's next update in order still waits behind B's gap, A's in-order common update applies at once.
        let common = Api.Updates.updateShort(.init(update: .updateNewMessage(.init(
            message: .message(.init(id: 1, fromId: .peerUser(.init(userId: 2)), peerId: .peerUser(.init(userId: 2)), date: 1, message: "c")),
            pts: 51, ptsCount: 1)), date: 1))
        #expect(machine.receive(common, now: 2.5).contains { if case .apply = $0 { true } else { false } })
        #expect(machine.state.pts == 51)
        // At 3 only A fetches, and asks to be woken for B.
        let atThree = machine.tick(now: 3)
        #expect(Self.fetches(atThree) == [[Self.channel, 10]])
        #expect(Self.wakes(atThree) == [4])
        // B's missing update arrives while A is fetching: B applies, A stays held.
        let filledB = machine.receive(Self.newPost(1, pts: 101, channel: Self.other), now: 3.5)
        #expect(Self.applied(filledB) == [1])
        #expect(machine.channels.pts(of: Self.other) == 101 && machine.channels.phase(of: Self.other) == .waitingForGap(deadline: 4))
        let filledB2 = machine.receive(Self.newPost(2, pts: 102, channel: Self.other), now: 3.6)
        #expect(Self.applied(filledB2) == [2, 3])
        #expect(machine.channels.phase(of: Self.other) == .ready)
        #expect(machine.channels.phase(of: Self.channel) == .fetchingDifference)
        #expect(machine.tick(now: 4).isEmpty)
        let closeA = machine.receiveChannelDifference(channelId: Self.channel, Self.difference([11, 12], pts: 12), now: 5)
        #expect(Self.channelStates(closeA) == [Self.channel: 13])
        #expect(machine.state.pts == 51, "channel differences leave the common pts alone")
    }

    @Test func aChannelSeenForTheFirstTimeStartsFromItsUpdate() {
        var machine = Self.machine(pts: nil)
        let first = machine.receive(Self.newPost(40, pts: 4_000, count: 1, channel: 999), now: 0)
        #expect(Self.applied(first) == [40])
        #expect(Self.channelStates(first) == [999: 4_000])
        #expect(Self.applied(machine.receive(Self.newPost(41, pts: 4_001, channel: 999), now: 0)) == [41])
        // Stored state is taken when seeded: a channel told its pts checks the next update against it.
        var seeded = Self.machine(pts: 10)
        seeded.seedChannel(Self.channel, pts: 500)  // ignored: already known
        #expect(Self.applied(seeded.receive(Self.newPost(1, pts: 11), now: 0)) == [1])
        // Too long for a channel with nothing stored asks from pts 1.
        var unknown = Self.machine(pts: nil)
        #expect(Self.fetches(unknown.receive(.updateShort(.init(update: .updateChannelTooLong(.init(channelId: 5, pts: 77)), date: 1)), now: 0)) == [[5, 1]])
        // Unavailable (no access hash): the held updates are dropped and the channel is ready.
        _ = unknown.receive(Self.newPost(3, pts: 80, channel: 5), now: 0)
        #expect(unknown.channels.heldCount(of: 5) == 1)
        _ = unknown.channelDifferenceUnavailable(channelId: 5)
        #expect(unknown.channels.heldCount(of: 5) == 0 && unknown.channels.phase(of: 5) == .ready)
    }

    @Test func channelUpdatesInsideTheCommonDifferenceFollowTheirChannel() {
        var machine = Self.machine()
        _ = machine.receive(.updatesTooLong, now: 0)
        let difference = Api.updates.Difference.difference(
            .init(newMessages: [], newEncryptedMessages: [],
                  otherUpdates: [
                    .updateNewChannelMessage(.init(message: Self.post(1), pts: 11, ptsCount: 1)),
                    .updateNewChannelMessage(.init(message: Self.post(1), pts: 11, ptsCount: 1)),
                    .updateNewChannelMessage(.init(message: Self.post(5), pts: 15, ptsCount: 1)),
                  ],
                  chats: [], users: [], state: .state(.init(pts: 60, qts: 0, date: 10, seq: 0, unreadCount: 0))))
        let actions = machine.receiveDifference(difference, now: 1)
        #expect(Self.applied(actions) == [1], "the repeat is skipped, 15 waits for its gap")
        #expect(machine.channels.heldCount(of: Self.channel) == 1)
        #expect(Self.wakes(actions) == [3])
        #expect(machine.state.pts == 60)
    }
}
