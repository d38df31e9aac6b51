import TLRuntime
import TelegramApi
import UpdateSequencing
import TestVectors
import Testing

/// The update state machine on virtual time: pts/qts/seq checks, gap waits, differences and their slices.
@Suite struct UpdateSequencerTests {
    static let me: Int64 = 1
    static let friend: Int64 = 2

    /// `updateNewMessage` of message `id` moving pts to `pts`.
    static func newMessage(_ id: Int32, pts: Int32, count: Int32 = 1) -> Api.Update {
        .updateNewMessage(
            .init(
                message: .message(.init(id: id, fromId: .peerUser(.init(userId: friend)), peerId: .peerUser(.init(userId: friend)), date: 100, message: "m\(id)")),
                pts: pts, ptsCount: count))
    }

    static func single(_ update: Api.Update, date: Int32 = 100) -> Api.Updates {
        .updateShort(.init(update: update, date: date))
    }

    /// Message ids of the applied entries, in order.
    static func appliedIds(_ actions: [UpdateSequencer.Action]) -> [Int32] {
        actions.flatMap { action -> [Int32] in
            guard case .apply(let batch) = action else { return [] }
            return batch.entries.compactMap { entry in
                switch entry {
                case .update(.updateNewMessage(let u)): if case .message(let m) = u.message { return m.id }
                case .newMessage(.message(let m)): return m.id
                default: break
                }
                return nil
            }
        }
    }

    static func batches(_ actions: [UpdateSequencer.Action]) -> Int {
        actions.filter { if case .apply = $0 { return true }; return false }.count
    }

    static func fetch(_ actions: [UpdateSequencer.Action]) -> UpdatesState? {
        for case .fetchDifference(let state) in actions { return state }
        return nil
    }

    static func wake(_ actions: [UpdateSequencer.Action]) -> Double? {
        for case .wake(let time) in actions { return time }
        return nil
    }

    static func state(pts: Int32 = 0, qts: Int32 = 0, seq: Int32 = 0, date: Int32 = 0) -> Api.updates.State {
        .state(.init(pts: pts, qts: qts, date: date, seq: seq, unreadCount: 0))
    }

    @Test func inOrderUpdatesApplyAndRepeatsAreSkipped() {
        var machine = UpdateSequencer(state: .init(pts: 10, qts: 0, seq: 0, date: 0), selfUserId: Self.me)
        let first = machine.receive(Self.single(Self.newMessage(1, pts: 11)), now: 0)
        #expect(Self.appliedIds(first) == [1])
        #expect(machine.state.pts == 11 && machine.state.date == 100)
        // Two at once (pts_count 2), then a repeat of the first.
        #expect(Self.appliedIds(machine.receive(Self.single(Self.newMessage(2, pts: 13, count: 2)), now: 0)) == [2])
        #expect(machine.receive(Self.single(Self.newMessage(1, pts: 11)), now: 0).isEmpty)
        #expect(machine.state.pts == 13 && machine.phase == .ready && machine.heldCount == 0)
    }

    @Test func aGapWaitsForItsMissingUpdateAndAppliesBothInOneBatch() {
        var machine = UpdateSequencer(state: .init(pts: 10, qts: 0, seq: 0, date: 0), selfUserId: Self.me)
        let early = machine.receive(Self.single(Self.newMessage(2, pts: 12)), now: 5)
        #expect(Self.appliedIds(early).isEmpty)
        #expect(Self.wake(early) == 7)
        #expect(machine.phase == .waitingForGap(deadline: 7))
        let filled = machine.receive(Self.single(Self.newMessage(1, pts: 11)), now: 6)
        #expect(Self.appliedIds(filled) == [1, 2])
        #expect(Self.batches(filled) == 1)
        #expect(machine.phase == .ready && machine.state.pts == 12)
        // The wake-up that was asked for finds nothing to do.
        #expect(machine.tick(now: 7).isEmpty)
    }

    @Test func aGapStillOpenWhenTheWaitEndsFetchesTheDifference() throws {
        var machine = UpdateSequencer(state: .init(pts: 10, qts: 0, seq: 3, date: 50), selfUserId: Self.me)
        _ = machine.receive(Self.single(Self.newMessage(3, pts: 13)), now: 0)
        #expect(machine.tick(now: 1.9) .count == 1)  // too early: it asks to be woken at the deadline again
        let fetch = try #require(Self.fetch(machine.tick(now: 2)))
        #expect(fetch == UpdatesState(pts: 10, qts: 0, seq: 3, date: 50))
        #expect(machine.phase == .fetchingDifference)
        // Something arriving meanwhile is held, even if it would fit.
        #expect(Self.appliedIds(machine.receive(Self.single(Self.newMessage(4, pts: 14)), now: 2.5)).isEmpty)
        // The difference brings 1…3; the held 3 is skipped, the held 4 then applies.
        let difference = Api.updates.Difference.difference(
            .init(
                newMessages: ([1, 2, 3] as [Int32]).map { id -> Api.Message in
                    if case .updateNewMessage(let u) = Self.newMessage(id, pts: 10 + id) { return u.message }
                    fatalError("unreachable")
                },
                newEncryptedMessages: [], otherUpdates: [], chats: [], users: [], state: Self.state(pts: 13, seq: 3, date: 60)))
        let applied = machine.receiveDifference(difference, now: 3)
        #expect(Self.appliedIds(applied) == [1, 2, 3, 4])
        #expect(machine.state.pts == 14 && machine.phase == .ready && machine.heldCount == 0)
    }

    @Test func slicesAreFetchedUntilTheLastAndTooLongResetsChats() throws {
        var machine = UpdateSequencer(state: .init(pts: 0, qts: 0, seq: 0, date: 0), selfUserId: Self.me)
        #expect(Self.fetch(machine.receive(.updatesTooLong, now: 0)) != nil)
        let slice = Api.updates.Difference.differenceSlice(
            .init(newMessages: [], newEncryptedMessages: [], otherUpdates: [Self.newMessage(1, pts: 1)], chats: [], users: [],
                  intermediateState: Self.state(pts: 1000)))
        let afterSlice = machine.receiveDifference(slice, now: 1)
        #expect(Self.appliedIds(afterSlice) == [1])
        #expect(Self.fetch(afterSlice)?.pts == 1000)
        let tooLong = machine.receiveDifference(.differenceTooLong(.init(pts: 5000)), now: 2)
        #expect(tooLong.contains { if case .resetChats(5000) = $0 { return true }; return false })
        #expect(Self.fetch(tooLong)?.pts == 5000)
        _ = machine.receiveDifference(.differenceEmpty(.init(date: 77, seq: 4)), now: 3)
        #expect(machine.state == UpdatesState(pts: 5000, qts: 0, seq: 4, date: 77))
        #expect(machine.phase == .ready)
    }

    @Test func seqContainersApplyInOrderAndSeqZeroAppliesAsItComes() {
        var machine = UpdateSequencer(state: .init(pts: 0, qts: 0, seq: 5, date: 0), selfUserId: Self.me)
        func container(_ id: Int32, pts: Int32, seq: Int32) -> Api.Updates {
            .updates(.init(updates: [Self.newMessage(id, pts: pts)], users: [], chats: [], date: 200, seq: seq))
        }
        // seq 7 before 6: held; 6 unblocks it.
        #expect(Self.appliedIds(machine.receive(container(2, pts: 2, seq: 7), now: 0)).isEmpty)
        #expect(Self.appliedIds(machine.receive(container(1, pts: 1, seq: 6), now: 0)) == [1, 2])
        #expect(machine.state.seq == 7 && machine.state.pts == 2)
        // An old seq is skipped whole; seq 0 skips the seq check but not the pts check.
        #expect(machine.receive(container(9, pts: 9, seq: 6), now: 0).isEmpty)
        #expect(Self.appliedIds(machine.receive(container(3, pts: 3, seq: 0), now: 0)) == [3])
        #expect(machine.state.seq == 7)
        // updatesCombined covers seq_start…seq.
        let combined = Api.Updates.updatesCombined(
            .init(updates: [Self.newMessage(4, pts: 4), Self.newMessage(5, pts: 5)], users: [], chats: [], date: 300, seqStart: 8, seq: 9))
        #expect(Self.appliedIds(machine.receive(combined, now: 0)) == [4, 5])
        #expect(machine.state.seq == 9 && machine.state.date == 300)
    }

    @Test func shortMessagesBecomeFullMessagesBetweenTheRightPeers() throws {
        var machine = UpdateSequencer(state: .init(pts: 0, qts: 0, seq: 0, date: 0), selfUserId: Self.me)
        let incoming = machine.receive(
            .updateShortMessage(.init(id: 1, userId: Self.friend, message: "hi", pts: 1, ptsCount: 1, date: 10)), now: 0)
        let outgoing = machine.receive(
            .updateShortMessage(.init(out: true, id: 2, userId: Self.friend, message: "yo", pts: 2, ptsCount: 1, date: 11)), now: 0)
        let group = machine.receive(
            .updateShortChatMessage(.init(id: 3, fromId: Self.friend, chatId: 9, message: "all", pts: 3, ptsCount: 1, date: 12)), now: 0)
        func message(_ actions: [UpdateSequencer.Action]) throws -> Api.Message.Cons_message {
            guard case .apply(let batch)? = actions.first, case .update(.updateNewMessage(let u))? = batch.entries.first,
                case .message(let m) = u.message
            else { throw CancellationError() }
            return m
        }
        let a = try message(incoming), b = try message(outgoing), c = try message(group)
        #expect(!a.out && a.message == "hi")
        guard case .peerUser(let aFrom)? = a.fromId, case .peerUser(let aPeer) = a.peerId else { throw CancellationError() }
        #expect(aFrom.userId == Self.friend && aPeer.userId == Self.friend)
        guard case .peerUser(let bFrom)? = b.fromId, case .peerUser(let bPeer) = b.peerId else { throw CancellationError() }
        #expect(b.out && bFrom.userId == Self.me && bPeer.userId == Self.friend)
        guard case .peerUser(let cFrom)? = c.fromId, case .peerChat(let cPeer) = c.peerId else { throw CancellationError() }
        #expect(cFrom.userId == Self.friend && cPeer.chatId == 9)
        #expect(machine.state.pts == 3 && machine.state.date == 12)
        // Our own send's answer moves pts and is handed back for the pending message.
        let sent = machine.receive(.updateShortSentMessage(.init(out: true, id: 4, pts: 4, ptsCount: 1, date: 13)), now: 0)
        guard case .apply(let batch)? = sent.first, case .sentMessage(let value)? = batch.entries.first else { throw CancellationError() }
        #expect(value.id == 4 && machine.state.pts == 4)
    }

    @Test func secretChatEventsFollowQts() {
        var machine = UpdateSequencer(state: .init(pts: 0, qts: 5, seq: 0, date: 0), selfUserId: Self.me)
        func encrypted(_ qts: Int32) -> Api.Updates {
            Self.single(.updateNewEncryptedMessage(.init(message: .encryptedMessageService(.init(randomId: Int64(qts), chatId: 1, date: 1, bytes: [])), qts: qts)))
        }
        let early = machine.receive(encrypted(7), now: 0)
        #expect(Self.batches(early) == 0 && Self.wake(early) != nil)
        let filled = machine.receive(encrypted(6), now: 0)
        guard case .apply(let batch)? = filled.first else { Issue.record("nothing applied"); return }
        #expect(batch.entries.count == 2 && machine.state.qts == 7)
    }

    @Test func tooManyHeldUpdatesFetchTheDifferenceAtOnce() {
        var machine = UpdateSequencer(
            state: .init(pts: 0, qts: 0, seq: 0, date: 0), selfUserId: Self.me, configuration: .init(gapWait: 60, maximumHeld: 3))
        for pts: Int32 in [10, 11, 12] { #expect(Self.fetch(machine.receive(Self.single(Self.newMessage(pts, pts: pts)), now: 0)) == nil) }
        #expect(Self.fetch(machine.receive(Self.single(Self.newMessage(13, pts: 13)), now: 0))?.pts == 0)
        #expect(machine.heldCount == 0)
    }

    /// Whatever arrives, in whatever order, with whatever lost, the account ends with every message once, in order:
    /// a simulated server answers each difference from its log, in slices.
    @Test(arguments: 0..<20) func anyArrivalOrderEndsWithEveryMessageOnceInOrder(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) + 1)
        let total: Int32 = 300
        var machine = UpdateSequencer(
            state: .init(pts: 0, qts: 0, seq: 0, date: 0), selfUserId: Self.me, configuration: .init(gapWait: 0.5, maximumHeld: 100))
        // What arrives: most updates, some twice, some lost, locally shuffled.
        var arrivals: [Int32] = []
        for pts in 1...total where random.next() % 10 != 0 {
            arrivals.append(pts)
            if random.next() % 20 == 0 { arrivals.append(pts) }
        }
        for index in arrivals.indices.dropLast() where random.next() % 4 == 0 {
            arrivals.swapAt(index, min(arrivals.count - 1, index + Int(random.next() % 5)))
        }
        var applied: [Int32] = []
        var now = 0.0
        var pending: [UpdateSequencer.Action] = []
        var wakeAt: Double?
        func run(_ actions: [UpdateSequencer.Action]) {
            pending += actions
            while !pending.isEmpty {
                let action = pending.removeFirst()
                switch action {
                case .apply:
                    applied += Self.appliedIds([action])
                case .fetchDifference(let from):
                    // The server's log, 50 at a time.
                    let last = min(total, from.pts + 50)
                    let others = from.pts < last ? (from.pts + 1...last).map { Self.newMessage($0, pts: $0) } : []
                    let difference: Api.updates.Difference =
                        from.pts >= total
                        ? .differenceEmpty(.init(date: 100, seq: 0))
                        : last < total
                            ? .differenceSlice(.init(newMessages: [], newEncryptedMessages: [], otherUpdates: others, chats: [], users: [], intermediateState: Self.state(pts: last)))
                            : .difference(.init(newMessages: [], newEncryptedMessages: [], otherUpdates: others, chats: [], users: [], state: Self.state(pts: last)))
                    pending += machine.receiveDifference(difference, now: now)
                case .wake(let time):
                    wakeAt = time
                case .resetChats, .fetchChannelDifference:
                    break
                }
            }
        }
        for pts in arrivals {
            now += 0.01
            if let time = wakeAt, now >= time {
                wakeAt = nil
                run(machine.tick(now: now))
            }
            run(machine.receive(Self.single(Self.newMessage(pts, pts: pts)), now: now))
        }
        // Then time passes: a gap left open is fetched.
        now += 10
        run(machine.tick(now: now))
        #expect(applied == Array(1...total))
        #expect(machine.state.pts == total && machine.heldCount == 0 && machine.phase == .ready)
    }
}

