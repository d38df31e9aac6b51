import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_LoopTests {
    /// Pages of three items, fetched one after another until a short page.
    @Test func feedbackLoopRunsRoundsUntilNil() {
        let inputs = Log()
        let signal = feedbackLoop(
            once: { (state: SignalFeedbackLoopState<[Int]>) -> Signal<[Int], TestError>? in
                switch state {
                case .initial:
                    inputs.add("initial")
                    return .single([1, 2, 3])
                case .loop(let items):
                    inputs.add("loop \(items.count)")
                    if items.count >= 7 { return nil }
                    let next = items.count + 1
                    return .single(Array(next..<min(next + 3, 8)))
                }
            }, reduce: { $0 + $1 })
        let recorder = record(signal)
        #expect(recorder.values == [[1, 2, 3], [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6, 7]])
        #expect(recorder.events.last == .Completion)
        #expect(inputs.all == ["initial", "loop 3", "loop 6", "loop 7"])
    }

    @Test func feedbackLoopFailsAndDisposes() {
        let failing = feedbackLoop(
            once: { (_: SignalFeedbackLoopState<Int>) in Signal<Int, TestError>.fail(.failed) }, reduce: +)
        #expect(record(failing).events == [.Error(.failed)])
        let source = TestSource<Int, TestError>()
        let recorder = record(feedbackLoop(once: { (_: SignalFeedbackLoopState<Int>) in source.signal }, reduce: +))
        source.putNext(1)
        source.putNext(2)
        recorder.dispose()
        #expect(recorder.values == [1, 3])
        #expect(source.activeCount == 0)
    }
}
