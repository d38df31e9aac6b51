import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_MergeTests {
    @Test func mergeInterleavesAndCompletesWhenAllComplete() {
        let a = TestSource<Int, TestError>()
        let b = TestSource<Int, TestError>()
        let recorder = record(merge(a.signal, b.signal))
        a.putNext(1)
        b.putNext(2)
        a.putCompletion()
        b.putNext(3)
        #expect(recorder.events == [.Next(1), .Next(2), .Next(3)])
        b.putCompletion()
        #expect(recorder.events.last == .Completion)
    }

    @Test func mergeFailsOnFirstErrorAndDisposesTheRest() {
        let a = TestSource<Int, TestError>()
        let recorder = record(merge([a.signal, sequence([], error: .failed)]))
        #expect(recorder.events == [.Error(.failed)])
        #expect(a.activeCount == 0)
    }

    @Test func mergeOfNothingCompletes() {
        #expect(record(merge([Signal<Int, TestError>]())).events == [.Completion])
    }

    @Test func mergeWithInAPipe() {
        #expect(record(sequence([1]) |> mergeWith(sequence([2]))).values == [1, 2])
    }

    @Test func disposingDisposesAll() {
        let a = TestSource<Int, TestError>()
        let b = TestSource<Int, TestError>()
        let recorder = record(merge(a.signal, b.signal))
        recorder.dispose()
        #expect(a.activeCount == 0 && b.activeCount == 0)
    }
}
