import Foundation
import PostboxTesting
import SignalTesting
import SwiftSignalKit
import TelegramApi
import TelegramCore
import Testing
import UpdateSequencing

/// The seq sequence through the state manager's shell on virtual time (core.telegram.org "Working with updates";
/// tg-server numbers privacy, block, draft and notify-settings pushes in it): a seq gap waits `gapWait`, then the
/// difference — whose seq moves the state past it — closes it; a repeated seq changes nothing; an `updatesCombined`
/// that fills a gap releases what waited behind it without a difference.
@Suite struct SeqStateManagerTests {
    typealias Harness = AccountStateManagerTests.Harness

    /// `updates` (one) or `updatesCombined` (several) of `updatePrivacy`, numbered from `seqStart`.
    static func privacy(count: Int32 = 1, seqStart: Int32) -> Api.Updates {
        let updates = (0..<count).map { _ in
            Api.Update.updatePrivacy(.init(key: .privacyKeyForwards, rules: [.privacyValueDisallowAll]))
        }
        let seq = seqStart + count - 1
        if count == 1 { return .updates(.init(updates: updates, users: [], chats: [], date: 100, seq: seq)) }
        return .updatesCombined(.init(updates: updates, users: [], chats: [], date: 100, seqStart: seqStart, seq: seq))
    }

    @Test func seqGapsWaitRepeatsAreSkippedAndCombinedContainersFillGaps() throws {
        let harness = try Harness()
        defer { harness.directory.remove() }
        let manager = harness.manager()
        manager.start()
        harness.advance(by: 0.01)
        #expect(try harness.storedState()?.seq == 0)
        harness.server.pipe.putNext(Self.privacy(seqStart: 1))
        harness.server.pipe.putNext(Self.privacy(seqStart: 1))  // a repeat: skipped
        harness.advance(by: 0.01)
        #expect(try harness.storedState()?.seq == 1)
        // 4 before 2…3: held; the combined 2…3 fills the gap before the wait ends, and 4 follows in the same batch.
        harness.server.pipe.putNext(Self.privacy(seqStart: 4))
        harness.advance(by: 1)
        #expect(try harness.storedState()?.seq == 1)
        harness.server.pipe.putNext(Self.privacy(count: 2, seqStart: 2))
        harness.advance(by: 0.01)
        #expect(try harness.storedState()?.seq == 4)
        harness.advance(by: 2)
        #expect(harness.server.asked.isEmpty)
        // 6 with 5 never coming: after the wait the difference is asked from seq 4, and its seq 6 ends the gap.
        harness.server.pipe.putNext(Self.privacy(seqStart: 6))
        harness.advance(by: 1.9)
        #expect(harness.server.asked.isEmpty)
        #expect(try harness.storedState()?.seq == 4)
        harness.server.differences = [.differenceEmpty(.init(date: 200, seq: 6))]
        harness.advance(by: 0.2)
        #expect(harness.server.asked == [UpdatesState(pts: 10, qts: 0, seq: 4, date: 100)])
        #expect(try harness.storedState()?.seq == 6)
        #expect(manager.statistics.differences == 1)
        // The held 6 was covered by the difference: nothing more happens.
        harness.advance(by: 3)
        #expect(harness.server.asked.count == 1)
        #expect(try harness.storedState()?.seq == 6)
        manager.stop()
        harness.advance(by: 0.01)
    }
}
