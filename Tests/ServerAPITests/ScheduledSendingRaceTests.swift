import ServerStore
import TelegramApi
import Testing

@testable import ServerAPI

/// The timer lists due scheduled messages, then takes each: what it sends is the row as it is when taken. An edit
/// made between the listing and the taking is neither lost nor sent early.
@Suite struct ScheduledSendingRaceTests {
    typealias Scheduled = ScheduledMessageTests

    @Test func aMessageEditedAfterTheTimerListedItIsSentAsEditedAtItsNewDate() throws {
        let harness = try AttackHarness()
        let (ann, ben) = try Scheduled.pair(harness)
        let message = try ScheduledEditTests.scheduleDraft(to: ben, harness)
        let backend = try #require(harness.handler.backend)
        harness.clock.advance(600)
        // The timer's listing, taken while the message was due with its old text.
        let listed = try #require(
            try backend.store.read { tx in try tx.dueScheduledMessages(at: Int32(harness.clock.now), limit: 10) }.first)
        #expect(listed.text == "draft")
        // Meanwhile Ann moves it ten minutes on and changes its text.
        _ = try harness.result(
            ScheduledEditTests.edit(message.id, to: ben.inputPeer, text: "final", at: Int32(harness.clock.now + 600)),
            as: Api.Updates.self, key: 1)
        let sender = Caller(authKeyId: 0, sessionId: 0, dc: 2, userId: ann.id, withoutUpdates: false)
        #expect(try backend.sendScheduledNow(listed, dueBy: Int32(harness.clock.now), caller: sender) == nil)
        #expect(try Scheduled.history(ann.inputPeer, key: 2, harness).isEmpty)
        harness.clock.advance(600)
        #expect(backend.sendDueScheduledMessages() == 1)
        #expect(try Scheduled.history(ann.inputPeer, key: 2, harness) == ["final"])
    }
}
