import Foundation
import SecretChats
import Testing

@Suite struct TimerTests {
    @Test func messagesGoTTLSecondsAfterTheyAreReadOnVirtualTime() throws {
        var timers = SecretChatTimers()
        timers.add(namespace: 2, id: 1, incoming: true, date: 100, ttl: 5)
        timers.add(namespace: 1, id: 7, incoming: false, date: 100, ttl: 5)
        timers.add(namespace: 1, id: 8, incoming: false, date: 130, ttl: 5)
        timers.add(namespace: 1, id: 9, incoming: false, date: 100, ttl: 0)  // no TTL: stays
        #expect(timers.entries.count == 3)
        #expect(timers.nextDeadline == nil)
        #expect(timers.removeDue(now: 10_000).isEmpty, "nothing goes before it is read")
        timers.readIncoming(now: 200)
        timers.readOutgoing(maxDate: 120, now: 202)
        #expect(timers.nextDeadline == 205)
        #expect(timers.removeDue(now: 204).isEmpty)
        #expect(timers.removeDue(now: 205).map(\.id) == [1])
        // Stored and loaded again (a restart), the other timer still runs.
        var restored = try JSONDecoder().decode(SecretChatTimers.self, from: JSONEncoder().encode(timers))
        #expect(restored.removeDue(now: 206).isEmpty)
        #expect(restored.removeDue(now: 207).map(\.id) == [7])
        #expect(restored.entries.map(\.id) == [8], "sent after the read date: waits for the next read")
    }
}
