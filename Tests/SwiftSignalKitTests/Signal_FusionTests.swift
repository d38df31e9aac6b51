import SignalTesting
import SwiftSignalKit
import TestVectors
import Testing

/// `map`/`filter` chains are fused into one forwarding subscriber (`SignalFusion`); these tests hold them to the
/// behaviour of Telegram's unfused operators, where every level starts its upstream with a guard of its own.
@Suite struct Signal_FusionTests {
    /// One operator of a random chain, with the same closure for the fused and the unfused build.
    enum Operator: CustomStringConvertible {
        /// A `map` of Ints.
        case affine(multiplier: Int, offset: Int)
        /// A `filter` of Ints.
        case residue(modulus: Int, remainder: Int)
        /// Through `String` and back: a `map` that changes the value type (a new fused run) and a `filter` on it.
        case viaString(dropPrefix: String)

        var description: String {
            switch self {
            case .affine(let multiplier, let offset): "map(*\(multiplier)+\(offset))"
            case .residue(let modulus, let remainder): "filter(%\(modulus)==\(remainder))"
            case .viaString(let prefix): "viaString(drop \(prefix))"
            }
        }

        /// The `map` of `.affine`, shared by both builds and the model.
        static func transform(_ multiplier: Int, _ offset: Int) -> @Sendable (Int) -> Int { { $0 &* multiplier &+ offset } }

        /// The `filter` of `.residue` (a remainder that is never negative), shared by both builds and the model.
        static func keeps(_ modulus: Int, _ remainder: Int) -> @Sendable (Int) -> Bool {
            { (($0 % modulus) + modulus) % modulus == remainder }
        }

        /// The operator as fused `map`/`filter` calls.
        func fused(_ signal: Signal<Int, TestError>) -> Signal<Int, TestError> {
            switch self {
            case .affine(let multiplier, let offset):
                return signal |> map(Self.transform(multiplier, offset))
            case .residue(let modulus, let remainder):
                return signal |> filter(Self.keeps(modulus, remainder))
            case .viaString(let prefix):
                return signal |> map { String($0) } |> filter { !$0.hasPrefix(prefix) } |> map { Int($0)! }
            }
        }

        /// The same operator built as Telegram's: each level a guard that starts its upstream.
        func unfused(_ signal: Signal<Int, TestError>) -> Signal<Int, TestError> {
            switch self {
            case .affine(let multiplier, let offset):
                return signal |> unfusedMap(Self.transform(multiplier, offset))
            case .residue(let modulus, let remainder):
                return signal |> unfusedFilter(Self.keeps(modulus, remainder))
            case .viaString(let prefix):
                return signal |> unfusedMap { String($0) } |> unfusedFilter { !$0.hasPrefix(prefix) }
                    |> unfusedMap { Int($0)! }
            }
        }

        /// The operator applied to one value: the result, or nil if dropped.
        func apply(_ value: Int) -> Int? {
            switch self {
            case .affine(let multiplier, let offset): Self.transform(multiplier, offset)(value)
            case .residue(let modulus, let remainder): Self.keeps(modulus, remainder)(value) ? value : nil
            case .viaString(let prefix): String(value).hasPrefix(prefix) ? nil : value
            }
        }

        static func random(_ generator: inout SeededGenerator) -> Operator {
            switch generator.next() % 3 {
            case 0:
                return .affine(multiplier: Int(generator.next() % 5) - 2, offset: Int(generator.next() % 21) - 10)
            case 1:
                let modulus = Int(generator.next() % 4) + 1
                return .residue(modulus: modulus, remainder: Int(generator.next() % UInt64(modulus)))
            default:
                return .viaString(dropPrefix: ["-", "1", "2", "9"][Int(generator.next() % 4)])
            }
        }
    }

    /// What the source does: values, then an error, a completion or nothing; then (ignored) events after the end.
    struct Script {
        var values: [Int]
        var end: SignalEvent<Int, TestError>?
        var afterEnd: [Int]

        var signal: Signal<Int, TestError> {
            Signal { subscriber in
                for value in values { subscriber.putNext(value) }
                switch end {
                case .Error(let error): subscriber.putError(error)
                case .Completion: subscriber.putCompletion()
                default: break
                }
                for value in afterEnd { subscriber.putNext(value) }
                subscriber.putCompletion()
                return EmptyDisposable
            }
        }

        /// The events a chain of `operators` must deliver.
        func expected(through operators: [Operator]) -> [Event] {
            var events: [Event] = values.compactMap { value in
                operators.reduce(Optional(value)) { value, op in value.flatMap(op.apply) }.map { .Next($0) }
            }
            events.append(end ?? .Completion)
            if end == nil {
                // No terminal event: the values after the (missing) end go through, then the final completion.
                events.removeLast()
                events += afterEnd.compactMap { value in
                    operators.reduce(Optional(value)) { value, op in value.flatMap(op.apply) }.map { .Next($0) }
                }
                events.append(.Completion)
            }
            return events
        }

        static func random(_ generator: inout SeededGenerator) -> Script {
            let values = (0..<Int(generator.next() % 12)).map { _ in Int(generator.next() % 201) - 100 }
            let end: SignalEvent<Int, TestError>? =
                switch generator.next() % 4 {
                case 0: .Error(.failed)
                case 1: .Error(.other)
                case 2: .Completion
                default: nil
                }
            return Script(values: values, end: end, afterEnd: [7, -3])
        }
    }

    @Test func randomFusedChainsDeliverWhatUnfusedChainsDeliver() {
        var generator = SeededGenerator(seed: 0x5167_4e41_4c21)
        for round in 0..<400 {
            let operators = (0..<Int(generator.next() % 11)).map { _ in Operator.random(&generator) }
            let script = Script.random(&generator)
            let fused = operators.reduce(script.signal) { signal, op in op.fused(signal) }
            let unfused = operators.reduce(script.signal) { signal, op in op.unfused(signal) }
            let fusedEvents = record(fused).events
            let unfusedEvents = record(unfused).events
            #expect(fusedEvents == unfusedEvents, "round \(round): \(operators) over \(script)")
            #expect(fusedEvents == script.expected(through: operators), "round \(round): \(operators) over \(script)")
        }
    }

    @Test func aChainSplitInTwoKeepsBothBranchesApart() {
        let base = sequence([1, 2, 3, 4, 5, 6]) |> map { $0 * 10 } |> filter { $0 > 10 }
        let evens = base |> filter { $0 % 20 == 0 }
        let shifted = base |> map { $0 + 1 }
        let strings = base |> map { "v\($0)" } |> filter { $0 != "v30" }
        #expect(record(evens).values == [20, 40, 60])
        #expect(record(shifted).values == [21, 31, 41, 51, 61])
        #expect(record(strings).values == ["v20", "v40", "v50", "v60"])
        #expect(record(base).values == [20, 30, 40, 50, 60])
    }

    @Test func disposingMidStreamStopsDeliveryAndDisposesTheSourceOnce() {
        let source = TestSource<Int, TestError>()
        let calls = Counter()
        var chain = source.signal
        for step in 0..<5 {
            chain = chain
                |> map {
                    calls.increment(); return $0 + step
                } |> filter { $0 >= 0 }
        }
        let recorder = record(chain |> map { String($0) } |> filter { !$0.isEmpty })
        source.putNext(1)
        source.putNext(2)
        recorder.dispose()
        source.putNext(3)
        source.putCompletion()
        #expect(recorder.events == [.Next("11"), .Next("12")])
        #expect(calls.count == 10)
        #expect(source.disposalCount == 1)
        #expect(source.activeCount == 0)
    }

    @Test func disposingFromTheValueHandlerStopsDeliveryFromASourceThatKeepsSending() throws {
        // The source keeps its (forwarding) subscriber and sends after the dispose: the chain's guard must drop it.
        let upstream = LockedValue<Subscriber<Int, NoError>?>.make(nil)
        let source = Signal<Int, NoError> { subscriber in
            upstream.withLock { $0 = subscriber }
            return EmptyDisposable
        }
        let received = Log()
        let subscription = LockedValue<Disposable?>.make(nil)
        let disposable = (source |> map { $0 * 2 } |> filter { $0 % 4 == 0 } |> map { $0 + 1 }).start(
            next: { value in
                received.add(String(value))
                if received.all.count == 3 { subscription.withLock { $0 }?.dispose() }
            })
        subscription.withLock { $0 = disposable }
        let subscriber = try #require(upstream.withLock { $0 })
        for value in 0..<100 { subscriber.putNext(value) }
        subscriber.putCompletion()
        #expect(received.all == ["1", "5", "9"])
        #expect(subscriber.isTerminated)
    }

    @Test func eachSubscriptionRunsTheSourceAndTheClosuresAgain() {
        let runs = Counter()
        let mapCalls = Counter()
        let source = Signal<Int, TestError> { subscriber in
            runs.increment()
            for value in [1, 2, 3] { subscriber.putNext(value) }
            subscriber.putCompletion()
            return EmptyDisposable
        }
        let chain =
            source
            |> map {
                mapCalls.increment(); return $0 * 3
            } |> filter { $0 != 6 } |> map { "\($0)" }
        #expect(runs.count == 0)
        for subscription in 1...3 {
            #expect(record(chain).events == [.Next("3"), .Next("9"), .Completion])
            #expect(runs.count == subscription)
            #expect(mapCalls.count == 3 * subscription)
        }
    }

    @Test func valuesSentFromAnotherQueueKeepTheirOrder() throws {
        let source = Signal<Int, NoError> { subscriber in
            let queue = Queue(name: "fusion.order")
            queue.async {
                for value in 0..<10_000 { subscriber.putNext(value) }
                subscriber.putCompletion()
            }
            return EmptyDisposable
        }
        let chain = source |> map { $0 * 2 } |> filter { $0 % 3 != 0 } |> map { $0 + 1 } |> filter { _ in true }
        let expected = (0..<10_000).map { $0 * 2 }.filter { $0 % 3 != 0 }.map { $0 + 1 }
        let recorder = record(chain)
        try #require(recorder.waitForEvents(expected.count + 1, seconds: 60), "the chain did not complete within 60 s")
        #expect(recorder.values == expected)
        #expect(recorder.events.last == .Completion)
    }
}

/// Telegram's `map`: a level that starts its upstream with a guard of its own (no fusion).
func unfusedMap<T, E, R>(_ f: @escaping @Sendable (T) -> R) -> (Signal<T, E>) -> Signal<R, E> {
    { signal in
        Signal { subscriber in
            signal.start(
                next: { subscriber.putNext(f($0)) }, error: { subscriber.putError($0) },
                completed: { subscriber.putCompletion() })
        }
    }
}

/// Telegram's `filter`, unfused like `unfusedMap`.
func unfusedFilter<T, E>(_ f: @escaping @Sendable (T) -> Bool) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            signal.start(
                next: { if f($0) { subscriber.putNext($0) } }, error: { subscriber.putError($0) },
                completed: { subscriber.putCompletion() })
        }
    }
}
