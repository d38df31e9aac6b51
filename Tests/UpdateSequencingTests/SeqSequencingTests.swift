import TLRuntime
import TelegramApi
import Testing
import UpdateSequencing

/// The seq sequence on virtual time (core.telegram.org "Working with updates": `updates` / `updatesCombined` with a
/// non-zero seq apply when `local + 1 == seq_start`), with the containers tg-server pushes in it: updates outside pts
/// and qts (here `updatePeerBlocked`), one seq each, several as `updatesCombined`.
@Suite struct SeqSequencingTests {
    /// `updates` (or `updatesCombined` for several) blocking the users `ids`, numbered `seqStart…seqStart+n−1`.
    static func blocks(_ ids: [Int64], seqStart: Int32, date: Int32 = 100) -> Api.Updates {
        let updates = ids.map {
            Api.Update.updatePeerBlocked(.init(blocked: true, peerId: .peerUser(.init(userId: $0))))
        }
        let seq = seqStart + Int32(ids.count) - 1
        if ids.count == 1 { return .updates(.init(updates: updates, users: [], chats: [], date: date, seq: seq)) }
        return .updatesCombined(.init(updates: updates, users: [], chats: [], date: date, seqStart: seqStart, seq: seq))
    }

    /// The users blocked by the applied entries, in order.
    static func blocked(_ actions: [UpdateSequencer.Action]) -> [Int64] {
        actions.flatMap { action -> [Int64] in
            guard case .apply(let batch) = action else { return [] }
            return batch.entries.compactMap { entry in
                guard case .update(.updatePeerBlocked(let update)) = entry, case .peerUser(let user) = update.peerId
                else { return nil }
                return user.userId
            }
        }
    }

    static func machine(seq: Int32) -> UpdateSequencer {
        UpdateSequencer(state: .init(pts: 10, qts: 0, seq: seq, date: 50), selfUserId: 1)
    }

    /// seq 7 arrives after 5: held for `gapWait`, a wake asked for its end; when nothing fills it, the difference is
    /// fetched from the state before the gap, and its seq (with the held container, now old) ends it.
    @Test func aSeqGapIsHeldThenFetchedAfterTheWait() throws {
        var machine = Self.machine(seq: 5)
        let early = machine.receive(Self.blocks([7], seqStart: 7), now: 10)
        #expect(Self.blocked(early).isEmpty)
        #expect(UpdateSequencerTests.wake(early) == 12)
        #expect(machine.phase == .waitingForGap(deadline: 12) && machine.heldCount == 1)
        #expect(UpdateSequencerTests.fetch(machine.tick(now: 11)) == nil)
        let fetch = try #require(UpdateSequencerTests.fetch(machine.tick(now: 12)))
        #expect(fetch == UpdatesState(pts: 10, qts: 0, seq: 5, date: 50))
        // The server's answer reports seq 7: the held container is old by then and is skipped, not applied twice.
        let done = machine.receiveDifference(.differenceEmpty(.init(date: 60, seq: 7)), now: 12.5)
        #expect(Self.blocked(done).isEmpty)
        #expect(machine.state.seq == 7 && machine.phase == .ready && machine.heldCount == 0)
        // The next one follows on.
        #expect(Self.blocked(machine.receive(Self.blocks([8], seqStart: 8), now: 13)) == [8])
        #expect(machine.state.seq == 8)
    }

    /// A container whose seq was already applied is skipped whole and changes nothing; no wait, no fetch.
    @Test func aDuplicateSeqIsSkipped() {
        var machine = Self.machine(seq: 5)
        #expect(Self.blocked(machine.receive(Self.blocks([6], seqStart: 6), now: 0)) == [6])
        let again = machine.receive(Self.blocks([6], seqStart: 6, date: 200), now: 0)
        #expect(again.isEmpty)
        #expect(machine.state.seq == 6 && machine.state.date == 100 && machine.phase == .ready)
        // An updatesCombined reaching back over an applied seq is old too.
        #expect(machine.receive(Self.blocks([5, 6], seqStart: 5), now: 0).isEmpty)
        #expect(machine.state.seq == 6 && machine.heldCount == 0)
    }

    /// 8 arrives before 6…7: held; the `updatesCombined` carrying 6…7 fills the gap and both apply in one batch, in
    /// seq order, before the wait ends — no difference.
    @Test func anUpdatesCombinedFillsTheGap() {
        var machine = Self.machine(seq: 5)
        #expect(Self.blocked(machine.receive(Self.blocks([8], seqStart: 8), now: 0)).isEmpty)
        #expect(machine.heldCount == 1)
        let filled = machine.receive(Self.blocks([6, 7], seqStart: 6), now: 1)
        #expect(Self.blocked(filled) == [6, 7, 8])
        #expect(UpdateSequencerTests.batches(filled) == 1)
        #expect(machine.state.seq == 8 && machine.phase == .ready && machine.heldCount == 0)
        #expect(UpdateSequencerTests.fetch(machine.tick(now: 2)) == nil)
    }
}
