import TelegramApi
import Testing
import UpdateSequencing

/// Pins move a pts like messages do (core.telegram.org "Working with updates"; API layer `updatePinnedMessages`,
/// `updatePinnedChannelMessages`): a private chat's or basic group's pin moves the common pts, a channel's moves the
/// channel's own; each waits for a gap before it and repeats are skipped.
@Suite struct PinnedUpdateSequencingTests {
    static let me: Int64 = 1
    static let friend: Int64 = 2
    static let channel: Int64 = 700

    static func pin(_ ids: [Int32], pts: Int32, pinned: Bool = true) -> Api.Updates {
        .updateShort(
            .init(
                update: .updatePinnedMessages(
                    .init(
                        pinned: pinned, peer: .peerUser(.init(userId: friend)), messages: ids, pts: pts, ptsCount: 1)),
                date: 100))
    }

    static func channelPin(_ ids: [Int32], pts: Int32, count: Int32 = 1, pinned: Bool = true) -> Api.Updates {
        .updateShort(
            .init(
                update: .updatePinnedChannelMessages(
                    .init(pinned: pinned, channelId: channel, messages: ids, pts: pts, ptsCount: count)),
                date: 100))
    }

    /// The pinned ids (negative when unpinned) of every applied pin update, in order.
    static func appliedPins(_ actions: [UpdateSequencer.Action]) -> [Int32] {
        actions.flatMap { action -> [Int32] in
            guard case .apply(let batch) = action else { return [] }
            return batch.entries.flatMap { entry -> [Int32] in
                switch entry {
                case .update(.updatePinnedMessages(let u)): return u.messages.map { u.pinned ? $0 : -$0 }
                case .update(.updatePinnedChannelMessages(let u)): return u.messages.map { u.pinned ? $0 : -$0 }
                default: return []
                }
            }
        }
    }

    @Test func aChatPinMovesTheCommonPtsAndWaitsForAGap() {
        var machine = UpdateSequencer(
            state: .init(pts: 10, qts: 0, seq: 0, date: 0), selfUserId: Self.me, configuration: .init(gapWait: 2))
        #expect(Self.appliedPins(machine.receive(Self.pin([5], pts: 11), now: 0)) == [5])
        #expect(machine.state.pts == 11)
        #expect(machine.receive(Self.pin([5], pts: 11), now: 0).isEmpty, "a repeat changes nothing")
        let early = machine.receive(Self.pin([6], pts: 13, pinned: false), now: 1)
        #expect(Self.appliedPins(early).isEmpty, "pts 12 is missing")
        #expect(machine.state.pts == 11)
        let filled = machine.receive(Self.pin([7], pts: 12), now: 1.5)
        #expect(Self.appliedPins(filled) == [7, -6])
        #expect(machine.state.pts == 13)
    }

    @Test func aChannelPinMovesTheChannelsPtsNotTheCommonOne() {
        var machine = UpdateSequencer(
            state: .init(pts: 50, qts: 0, seq: 0, date: 0), selfUserId: Self.me, configuration: .init(gapWait: 2))
        machine.seedChannel(Self.channel, pts: 10)
        let first = machine.receive(Self.channelPin([3], pts: 11), now: 0)
        #expect(Self.appliedPins(first) == [3])
        #expect(machine.channels.pts(of: Self.channel) == 11)
        #expect(machine.state.pts == 50, "the common pts is untouched")
        #expect(machine.receive(Self.channelPin([3], pts: 11), now: 0).isEmpty, "a repeat changes nothing")
        let early = machine.receive(Self.channelPin([3, 4], pts: 14, count: 2, pinned: false), now: 1)
        #expect(Self.appliedPins(early).isEmpty, "pts 12 is missing")
        #expect(machine.channels.phase(of: Self.channel) == .waitingForGap(deadline: 3))
        let filled = machine.receive(Self.channelPin([9], pts: 12), now: 2)
        #expect(Self.appliedPins(filled) == [9, -3, -4])
        #expect(machine.channels.pts(of: Self.channel) == 14)
    }
}
