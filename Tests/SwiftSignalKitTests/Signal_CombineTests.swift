import SignalTesting
import SwiftSignalKit
import Testing

@Suite struct Signal_CombineTests {
    @Test func emitsOnceEveryInputHasAValueThenOnEachUpdate() {
        let a = TestSource<Int, TestError>()
        let b = TestSource<String, TestError>()
        let recorder = record(combineLatest(a.signal, b.signal) |> map { "\($0.0)\($0.1)" })
        a.putNext(1)
        a.putNext(2)
        #expect(recorder.values == [])
        b.putNext("x")
        a.putNext(3)
        b.putNext("y")
        #expect(recorder.values == ["2x", "3x", "3y"])
    }

    @Test func completesWhenAllCompleteAndFailsOnFirstError() {
        let a = TestSource<Int, TestError>()
        let b = TestSource<Int, TestError>()
        let recorder = record(combineLatest(a.signal, b.signal) |> map { $0.0 + $0.1 })
        a.putNext(1)
        b.putNext(2)
        a.putCompletion()
        #expect(recorder.events == [.Next(3)])
        b.putNext(5)
        b.putCompletion()
        #expect(recorder.events == [.Next(3), .Next(6), .Completion])
        let failing = record(combineLatest(sequence([1]), sequence([], error: .failed)) |> map { $0.0 })
        #expect(failing.events == [.Error(.failed)])
    }

    @Test func twelveSignals() {
        let signal = combineLatest(
            sequence([1]), sequence([2]), sequence([3]), sequence([4]), sequence([5]), sequence([6]),
            sequence([7]), sequence([8]), sequence([9]), sequence([10]), sequence([11]), sequence([12]))
        let recorder = record(
            signal |> map { a, b, c, d, e, f, g, h, i, j, k, l in [a, b, c, d, e, f, g, h, i, j, k, l].reduce(0, +) })
        #expect(recorder.events == [.Next(78), .Completion])
    }

    @Test func threeSignalsKeepTheirTypes() {
        let signal = combineLatest(
            sequence([1]), Signal<String, TestError>.single("a"), Signal<Bool, TestError>.single(true))
        let recorder = record(signal |> map { "\($0.0)\($0.1)\($0.2)" })
        #expect(recorder.values == ["1atrue"])
    }

    @Test func initialValuesEmitFromTheFirstUpdate() {
        let a = TestSource<Int, TestError>()
        let b = TestSource<String, TestError>()
        let recorder = record(combineLatest(a.signal, 0, b.signal, "-") |> map { "\($0.0)\($0.1)" })
        #expect(recorder.values == [])
        a.putNext(1)
        b.putNext("z")
        #expect(recorder.values == ["1-", "1z"])
    }

    @Test func arrayForm() {
        let recorder = record(combineLatest([sequence([1, 2]), sequence([10])]))
        #expect(recorder.events == [.Next([2, 10]), .Completion])
        let empty = record(combineLatest([Signal<Int, TestError>]()))
        #expect(empty.events == [.Next([]), .Completion])
    }

    @Test func queueFormDeliversOnTheQueue() {
        let scheduler = VirtualTimeScheduler()
        let queue = scheduler.makeQueue()
        let onQueue = Log()
        let signal =
            combineLatest(queue: queue, sequence([1]), sequence([2]))
            |> map { pair -> Int in
                onQueue.add("\(queue.isCurrent())")
                return pair.0 + pair.1
            }
        let recorder = record(signal)
        #expect(recorder.events == [])
        scheduler.run()
        #expect(recorder.events == [.Next(3), .Completion])
        #expect(onQueue.all == ["true"])
    }

    @Test func disposingDisposesEveryInput() {
        let a = TestSource<Int, TestError>()
        let b = TestSource<Int, TestError>()
        let recorder = record(combineLatest(a.signal, b.signal) |> map { $0.0 })
        recorder.dispose()
        #expect(a.activeCount == 0)
        #expect(b.activeCount == 0)
    }
}
