import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_MaterializeTests {
    @Test func dematerializeTurnsEventsIntoValues() {
        let values = record(sequence([1, 2]) |> dematerialize).values
        #expect(values == [.Next(1), .Next(2), .Completion])
        let failing = record(sequence([1], error: .failed) |> dematerialize)
        #expect(failing.events == [.Next(.Next(1)), .Next(.Error(.failed)), .Completion])
    }

    @Test func materializeTurnsValuesBackIntoEvents() {
        let roundTrip = record(sequence([1, 2], error: .other) |> dematerialize |> materialize)
        #expect(roundTrip.events == [.Next(1), .Next(2), .Error(.other)])
        let events = Signal<SignalEvent<Int, TestError>, NoError> { subscriber in
            subscriber.putNext(.Next(3))
            subscriber.putNext(.Completion)
            subscriber.putNext(.Next(4))
            return EmptyDisposable
        }
        #expect(record(events |> materialize).events == [.Next(3), .Completion])
    }

    @Test func disposingStopsTheSource() {
        let source = TestSource<Int, TestError>()
        let recorder = record(source.signal |> dematerialize)
        recorder.dispose()
        #expect(source.disposalCount == 1)
    }
}
