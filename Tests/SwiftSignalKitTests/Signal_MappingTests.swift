import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_MappingTests {
    @Test func mapTransformsValuesAndPassesTerminalEvents() {
        #expect(record(sequence([1, 2]) |> map { $0 * 10 }).events == [.Next(10), .Next(20), .Completion])
        #expect(record(sequence([1], error: .failed) |> map { $0 + 1 }).events == [.Next(2), .Error(.failed)])
    }

    @Test func filterPassesMatchingValues() {
        #expect(record(sequence([1, 2, 3, 4]) |> filter { $0 % 2 == 0 }).events == [.Next(2), .Next(4), .Completion])
        #expect(record(sequence([1], error: .other) |> filter { _ in false }).events == [.Error(.other)])
    }

    @Test func flatMapMapsNonNilValues() {
        let source = Signal<Int?, TestError> { subscriber in
            subscriber.putNext(1)
            subscriber.putNext(nil)
            subscriber.putCompletion()
            return EmptyDisposable
        }
        let recorder = record(source |> flatMap { "\($0)" })
        #expect(recorder.events == [.Next("1"), .Next(nil), .Completion])
    }

    @Test func mapErrorTransformsTheError() {
        let recorder = record(sequence([1], error: .failed) |> mapError { _ in "mapped" })
        #expect(recorder.events == [.Next(1), .Error("mapped")])
        #expect(record(sequence([2]) |> mapError { _ in "x" }).events == [.Next(2), .Completion])
    }

    @Test func castErrorRetypesANoErrorSignal() {
        let signal: Signal<Int, TestError> = Signal<Int, NoError>.single(1) |> castError(TestError.self)
        #expect(record(signal).events == [.Next(1), .Completion])
    }

    @Test func distinctUntilChangedDropsRepeats() {
        let recorder = record(sequence([1, 1, 2, 2, 1, 3, 3]) |> distinctUntilChanged)
        #expect(recorder.events == [.Next(1), .Next(2), .Next(1), .Next(3), .Completion])
        let custom = record(sequence([1, 3, 2, 4, 7]) |> distinctUntilChanged(isEqual: { $0 % 2 == $1 % 2 }))
        #expect(custom.values == [1, 2, 7])
        #expect(
            record(sequence([1, 1], error: .failed) |> distinctUntilChanged).events == [.Next(1), .Error(.failed)])
    }

    @Test func disposingAMappedChainDisposesTheSource() {
        let source = TestSource<Int, TestError>()
        let recorder = record(
            source.signal |> map { $0 + 1 } |> filter { $0 > 0 } |> mapError { $0 } |> distinctUntilChanged)
        source.putNext(1)
        recorder.dispose()
        source.putNext(2)
        #expect(recorder.values == [2])
        #expect(source.disposalCount == 1)
        #expect(source.activeCount == 0)
    }

    @Test func fusedChainDeliversNothingAfterTheSourceTerminates() {
        let source = Signal<Int, TestError> { subscriber in
            subscriber.putNext(1)
            subscriber.putCompletion()
            subscriber.putNext(2)
            subscriber.putError(.failed)
            return EmptyDisposable
        }
        let recorder = record(source |> map { $0 } |> filter { _ in true } |> map { $0 * 2 })
        #expect(recorder.events == [.Next(2), .Completion])
    }
}
