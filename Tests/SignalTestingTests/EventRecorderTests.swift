import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct EventRecorderTests {
    enum Failure: Error, Equatable, Sendable { case failed }

    @Test func recordsTheWholeHistoryWithTimes() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let signal = Signal<Int, Failure>.single(1) |> delay(2, queue: queue)
        let recorder = EventRecorder(signal, scheduler: scheduler)
        #expect(recorder.timedEvents == [])
        scheduler.run()
        #expect(recorder.timedEvents == [RecordedEvent(2, .Next(1)), RecordedEvent(2, .Completion)])
        #expect(recorder.events == [.Next(1), .Completion])
        #expect(recorder.values == [1])
        #expect(recorder.isTerminated)
    }

    @Test func restartingDisposesThePreviousSubscription() {
        let source = TestSource<Int, Failure>()
        let recorder = EventRecorder<Int, Failure>()
        recorder.start(source.signal)
        recorder.start(source.signal)
        #expect(source.subscriptionCount == 2)
        #expect(source.activeCount == 1)
        source.putError(.failed)
        #expect(recorder.events == [.Error(.failed)])
        #expect(source.activeCount == 0)
    }

    @Test func testSourceCountsAndDelivers() {
        let source = TestSource<String, Failure>()
        let a = EventRecorder(source.signal)
        let b = EventRecorder(source.signal)
        source.putNext("x")
        a.dispose()
        source.putNext("y")
        source.putCompletion()
        #expect(a.values == ["x"])
        #expect(b.events == [.Next("x"), .Next("y"), .Completion])
        #expect(source.subscriptionCount == 2)
        #expect(source.disposalCount == 2)
        #expect(source.activeCount == 0)
    }
}
