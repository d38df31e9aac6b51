import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_TakeTests {
    @Test func takeCompletesAfterCountAndDisposesTheSource() {
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> take(2))
        source.putNext(1)
        source.putNext(2)
        source.putNext(3)
        #expect(recorder.events == [.Next(1), .Next(2), .Completion])
        #expect(source.disposalCount == 1)
    }

    @Test func takeZeroCompletesAtOnce() {
        #expect(record(sequence([1, 2]) |> take(0)).events == [.Completion])
    }

    @Test func takePassesEarlyTerminalEvents() {
        #expect(record(sequence([1]) |> take(3)).events == [.Next(1), .Completion])
        #expect(record(sequence([1], error: .failed) |> take(3)).events == [.Next(1), .Error(.failed)])
    }

    @Test func takeLastDeliversTheLastValuesOnCompletion() {
        #expect(record(sequence([1, 2, 3, 4]) |> takeLast(2)).events == [.Next(3), .Next(4), .Completion])
        #expect(record(sequence([1]) |> takeLast(3)).events == [.Next(1), .Completion])
        #expect(record(sequence([1, 2], error: .failed) |> takeLast(1)).events == [.Error(.failed)])
    }

    @Test func takeUntilFollowsTheAction() {
        let recorder = record(
            sequence([1, 2, 3, 4])
                |> take(until: { value in SignalTakeAction(passthrough: value != 2, complete: value == 3) }))
        #expect(recorder.events == [.Next(1), .Next(3), .Completion])
        let excluded = record(
            sequence([5, 6]) |> take(until: { _ in SignalTakeAction(passthrough: false, complete: true) }))
        #expect(excluded.events == [.Completion])
    }

    @Test func lastDeliversTheLastValueOrNil() {
        #expect(record(sequence([1, 2, 3]) |> last).events == [.Next(3), .Completion])
        #expect(record(sequence([]) |> last).events == [.Next(nil), .Completion])
        #expect(record(sequence([1], error: .other) |> last).events == [.Error(.other)])
    }

    @Test func disposingStopsTheSource() {
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> takeLast(1))
        recorder.dispose()
        source.putCompletion()
        #expect(recorder.events == [])
        #expect(source.disposalCount == 1)
    }
}
