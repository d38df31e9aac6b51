import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_TimingTests {
    @Test func delayStartsTheSignalLater() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> delay(0.3, queue: queue), scheduler: scheduler)
        scheduler.advance(by: 0.29)
        #expect(source.subscriptionCount == 0)
        scheduler.advance(by: 0.01)
        #expect(source.subscriptionCount == 1)
        source.putNext(1)
        source.putError(.failed)
        #expect(recorder.timedEvents == [RecordedEvent(0.3, .Next(1)), RecordedEvent(0.3, .Error(.failed))])
    }

    @Test func delayCancelledBeforeItFiresNeverStarts() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> delay(1, queue: queue), scheduler: scheduler)
        scheduler.advance(by: 0.5)
        recorder.dispose()
        scheduler.advance(by: 5)
        #expect(source.subscriptionCount == 0)
        #expect(scheduler.pendingTaskCount == 0)
    }

    @Test func delayedCompletion() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let recorder = record(sequence([4]) |> delay(2, queue: queue), scheduler: scheduler)
        scheduler.run()
        #expect(recorder.timedEvents == [RecordedEvent(2, .Next(4)), RecordedEvent(2, .Completion)])
    }

    @Test func suspendAwareDelayShortTimeoutIsAPlainDelay() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let recorder = record(sequence([1]) |> suspendAwareDelay(3, granularity: 4, queue: queue), scheduler: scheduler)
        scheduler.run()
        #expect(recorder.timedEvents == [RecordedEvent(3, .Next(1)), RecordedEvent(3, .Completion)])
    }

    @Test func suspendAwareDelayPollsAndThenArmsTheFinalTimer() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let recorder = record(
            sequence([1]) |> suspendAwareDelay(10, granularity: 2, queue: queue), scheduler: scheduler)
        scheduler.advance(by: 9.9)
        #expect(recorder.events == [])
        scheduler.run()
        // Polls at 2, 4, 6, 8: at 8 the deadline (10) is within 2.2 s, so a final timer of 2 s fires at 10.
        #expect(recorder.timedEvents == [RecordedEvent(10, .Next(1)), RecordedEvent(10, .Completion)])
    }

    @Test func suspendAwareDelayCanBeCancelled() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> suspendAwareDelay(10, granularity: 2, queue: queue))
        scheduler.advance(by: 5)
        recorder.dispose()
        scheduler.run()
        #expect(source.subscriptionCount == 0)
    }

    @Test func timeoutSwitchesToTheAlternate() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let source = TestSource<Int, TestError>()
        let recorder = record(
            source.signal |> timeout(5, queue: queue, alternate: .single(-1)), scheduler: scheduler)
        scheduler.advance(by: 5)
        #expect(recorder.timedEvents == [RecordedEvent(5, .Next(-1)), RecordedEvent(5, .Completion)])
        #expect(source.activeCount == 0)
    }

    @Test func timeoutIsStoppedByTheFirstEvent() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> timeout(5, queue: queue, alternate: .single(-1)), scheduler: scheduler)
        scheduler.advance(by: 1)
        source.putNext(1)
        scheduler.advance(by: 10)
        source.putError(.other)
        #expect(recorder.timedEvents == [RecordedEvent(1, .Next(1)), RecordedEvent(11, .Error(.other))])
    }

    @Test func timeoutDisposalCancelsTheTimer() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let recorder = record(Signal<Int, TestError>.never() |> timeout(1, queue: queue, alternate: .single(-1)))
        recorder.dispose()
        scheduler.run()
        #expect(recorder.events == [])
        #expect(scheduler.pendingTaskCount == 0)
    }

    @Test func debounceDeliversAfterQuiet() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> debounce(0.5, queue: queue), scheduler: scheduler)
        source.putNext(1)
        scheduler.advance(by: 0.3)
        source.putNext(2)
        scheduler.advance(by: 0.3)
        source.putNext(3)
        scheduler.advance(by: 0.6)
        source.putNext(4)
        scheduler.advance(by: 0.1)
        source.putCompletion()
        scheduler.run()
        #expect(
            recorder.timedEvents == [
                RecordedEvent(1.1, .Next(3)), RecordedEvent(1.3, .Next(4)), RecordedEvent(1.3, .Completion),
            ])
    }

    @Test func debounceErrorDropsTheWaitingValue() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> debounce(0.5, queue: queue), scheduler: scheduler)
        source.putNext(1)
        source.putError(.failed)
        scheduler.run()
        #expect(recorder.events == [.Error(.failed)])
    }

    @Test func debounceDisposalCancelsTheTimer() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> debounce(0.5, queue: queue))
        source.putNext(1)
        recorder.dispose()
        scheduler.run()
        #expect(recorder.events == [])
        #expect(source.activeCount == 0)
    }
}
