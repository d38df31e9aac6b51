import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_ReduceTests {
    @Test func reduceLeftFoldsOnCompletion() {
        #expect(record(sequence([1, 2, 3]) |> reduceLeft(value: 10, f: +)).events == [.Next(16), .Completion])
        #expect(record(sequence([]) |> reduceLeft(value: 0, f: +)).events == [.Next(0), .Completion])
        #expect(record(sequence([1], error: .failed) |> reduceLeft(value: 0, f: +)).events == [.Error(.failed)])
    }

    @Test func reduceLeftWithEmitDeliversIntermediateValues() {
        let signal =
            sequence([1, 2, 3, 4])
            |> reduceLeft(value: 0) { sum, next, emit in
                let updated = sum + next
                if updated % 2 == 0 { emit(updated) }
                return updated
            }
        #expect(record(signal).events == [.Next(6), .Next(10), .Next(10), .Completion])
    }

    @Test func reduceLeftWithSignalsRunsStepsInOrder() {
        let signal =
            sequence([1, 2, 3])
            |> reduceLeft(0) { (sum: Int, next: Int) -> Signal<(Int, Passthrough<Int>), TestError> in
                let updated = sum + next
                return .single((updated, next == 2 ? .Some(updated * 100) : .None))
            }
        #expect(record(signal).events == [.Next(300), .Next(6), .Completion])
    }

    @Test func reduceLeftWithAsynchronousStepsWaitsForEach() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let signal =
            sequence([1, 2])
            |> reduceLeft(0) { (sum: Int, next: Int) -> Signal<(Int, Passthrough<Int>), TestError> in
                Signal<(Int, Passthrough<Int>), TestError>.single((sum * 10 + next, .None)) |> delay(1, queue: queue)
            }
        let recorder = record(signal, scheduler: scheduler)
        scheduler.advance(by: 1)
        #expect(recorder.events == [])
        scheduler.advance(by: 1)
        #expect(recorder.timedEvents == [RecordedEvent(2, .Next(12)), RecordedEvent(2, .Completion)])
    }

    @Test func reduceLeftDisposalStopsTheSource() {
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> reduceLeft(value: 0, f: +))
        source.putNext(1)
        recorder.dispose()
        source.putCompletion()
        #expect(recorder.events == [])
        #expect(source.disposalCount == 1)
    }
}
