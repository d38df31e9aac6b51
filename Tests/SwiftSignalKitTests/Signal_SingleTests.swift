import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_SingleTests {
    @Test func freeFunctionConstructors() {
        #expect(record(single(5, TestError.self)).events == [.Next(5), .Completion])
        #expect(record(fail(Int.self, TestError.failed)).events == [.Error(.failed)])
        #expect(record(complete(Int.self, TestError.self)).events == [.Completion])
        #expect(record(never(Int.self, TestError.self)).events == [])
    }

    @Test func neverCanBeDisposed() {
        final class Owner: Sendable {}
        var owner: Owner? = Owner()
        weak let watched = owner
        let events = Log()
        let disposable = never(Int.self, NoError.self).start(
            next: { [owner] _ in events.add("next \(owner != nil)") }, completed: { events.add("completed") })
        owner = nil
        // While subscribed, the subscription keeps its closures (and what they hold); it delivers nothing.
        #expect(watched != nil)
        disposable.dispose()
        // Disposing ends it: the closures are released, and nothing was or will be delivered.
        #expect(watched == nil)
        #expect(events.all == [])
    }
}
