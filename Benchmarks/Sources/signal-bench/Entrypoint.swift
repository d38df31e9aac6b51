import BenchmarkSupport
import Dispatch
@preconcurrency import OpenCombine
import OpenCombineDispatch
import SwiftSignalKit

/// SwiftSignalKit against OpenCombine 0.14.0 on five workloads (BENCHMARKS.md), in one run.
///
/// Each pair does the same work with each library's idiomatic parts: a synchronous source (a generator loop /
/// `Publishers.Sequence` behind `eraseToAnyPublisher()`, so every operator is a subscriber on both sides), hot
/// subjects (`ValuePipe` / `PassthroughSubject`), a value holder (`ValuePromise` / `CurrentValueSubject`) and a hop
/// to a serial queue (`deliverOn` / `receive(on:)`). Every workload's sink adds its values (the same plain store for
/// both libraries, no lock); each run returns what it added, and the two sides' sums must be equal
/// (`compareInterleaved`), so a side that skipped work stops the benchmark.
nonisolated(unsafe) var sink = 0

@main
enum SignalBench {
    static func main() {
        checkCommandLine(
            """
            usage: signal-bench [a] [b] [c] [d] [e] | limit

            SwiftSignalKit against OpenCombine 0.14.0 on the same closures and sink: (a) 1M values through 10 map/filter,
            (b) 100k subscribe + dispose, (c) combineLatest of 3, (d) ValuePromise to 100 subscribers, (e) deliverOn a
            serial queue; then (a) against its limit, a plain loop calling the same ten closures.
              a … e   run only those workloads
              limit   run only (a) and the plain loop (no OpenCombine), for profiles
            """, accepted: ["a", "b", "c", "d", "e", "limit"])
        printMachine()
        // `signal-bench a c` runs only those workloads (for profiling); no argument runs all five.
        let only = Set(CommandLine.arguments.dropFirst())
        // `signal-bench limit` runs only (a) ours and its plain-loop limit (no OpenCombine), for profiles.
        if only == ["limit"] {
            printTable(
                title: "Signal (a) against its limit", peerName: "plain loop calling the same ten closures",
                [
                    compareInterleaved(
                        "(a) 1M values through 10 map/filter", items: Double(chainCount), unit: "values",
                        goal: "≥ 0.25×", ours: chainOurs, peer: chainPlainLoop)
                ])
            return
        }
        func run(_ key: String, _ make: () -> Comparison) -> Comparison? {
            only.isEmpty || only.contains(key) ? make() : nil
        }
        let rows = [
            run("a") {
                compareInterleaved(
                    "(a) 1M values through 10 map/filter", items: Double(chainCount), unit: "values", goal: "≥ 1.5×",
                    ours: chainOurs, peer: chainPeer)
            },
            run("b") {
                let ours = subscribeOurs()
                let peer = subscribePeer()
                return compareInterleaved(
                    "(b) 100k subscribe + dispose", items: Double(subscribeCount), unit: "subs", goal: "≥ 1.0×",
                    ours: ours, peer: peer)
            },
            run("c") {
                let ours = combineOurs()
                let peer = combinePeer()
                return compareInterleaved(
                    "(c) combineLatest of 3, 1M updates", items: Double(chainCount), unit: "updates",
                    goal: "≥ 1.5× (peer hand-written: no CombineLatest in 0.14.0)", ours: ours, peer: peer)
            },
            run("d") {
                compareInterleaved(
                    "(d) ValuePromise → 100 subscribers, 100k updates", items: Double(fanOutUpdates),
                    unit: "updates", goal: "≥ 1.0×", ours: fanOutOurs, peer: fanOutPeer)
            },
            run("e") {
                let ours = deliverOurs()
                let peer = deliverPeer()
                return compareInterleaved(
                    "(e) deliverOn serial queue, 1M values", items: Double(chainCount), unit: "values",
                    goal: "≥ 1.5×", ours: ours, peer: peer)
            },
        ].compactMap { $0 }
        printTable(title: "Signal: SwiftSignalKit vs OpenCombine 0.14.0", peerName: "OpenCombine", rows)
        if rows.contains(where: { $0.workload.hasPrefix("(a)") }) {
            // Measured again back to back with the limit, so both see the same load on a shared machine.
            printTable(
                title: "Signal (a) against its limit", peerName: "plain loop calling the same ten closures",
                [
                    compareInterleaved(
                        "(a) 1M values through 10 map/filter", items: Double(chainCount), unit: "values",
                        goal: "≥ 0.25×", ours: chainOurs, peer: chainPlainLoop)
                ])
        }
        blackHole(sink)
    }

    static let chainCount = 1_000_000

    // MARK: (a) a chain of ten stateless operators (the same closures for both libraries)

    static let step1: @Sendable (Int) -> Int = { $0 &+ 1 }
    static let step2: @Sendable (Int) -> Int = { $0 &* 3 }
    static let step3: @Sendable (Int) -> Int = { $0 &- 2 }
    static let step4: @Sendable (Int) -> Int = { $0 ^ 0x55 }
    static let step5: @Sendable (Int) -> Int = { $0 &+ 7 }
    static let keep1: @Sendable (Int) -> Bool = { $0 >= 0 }
    static let keep2: @Sendable (Int) -> Bool = { $0 & 1 <= 1 }
    static let keep3: @Sendable (Int) -> Bool = { $0 > Int.min }
    static let keep4: @Sendable (Int) -> Bool = { $0 != -1 }
    static let keep5: @Sendable (Int) -> Bool = { _ in true }

    /// What `body` added to `sink`: a run's output, compared between the two sides.
    static func added(_ body: () -> Void) -> Int {
        let before = sink
        body()
        return sink &- before
    }

    static func chainOurs() -> Int {
        added {
            let source = Signal<Int, NoError> { subscriber in
                for value in 0..<chainCount { subscriber.putNext(value) }
                subscriber.putCompletion()
                return EmptyDisposable
            }
            let half: Signal<Int, NoError> =
                source |> map(step1) |> filter(keep1) |> map(step2) |> filter(keep2)
                |> map(step3)
            let chain: Signal<Int, NoError> =
                half |> filter(keep3) |> map(step4) |> filter(keep4) |> map(step5)
                |> filter(keep5)
            _ = chain.start(next: { value in sink &+= value })
        }
    }

    /// The peer's chain over the same source. `(0..<N).publisher.map(…)` would not run OpenCombine's `Map` and
    /// `Filter` subscribers at all: `Publishers.Sequence` folds each `map` / `filter` into a pass over a whole array
    /// before anything is subscribed. Erased, the sequence is an opaque publisher, and each operator is a
    /// subscriber that every value goes through, as in ours.
    static func chainPeer() -> Int {
        added {
            let source = (0..<chainCount).publisher.eraseToAnyPublisher()
            let half = source.map(step1).filter(keep1).map(step2).filter(keep2).map(step3)
            let cancellable = half.filter(keep3).map(step4).filter(keep4).map(step5).filter(keep5)
                .sink { sink &+= $0 }
            cancellable.cancel()
        }
    }

    /// The limit of (a): the same ten closures called in a plain loop on each value, with the same sink. The closures
    /// are handed to a function the optimizer may not inline, so it calls them as values, as any pipeline built at
    /// run time must (inlining them would fold the ten steps into a few instructions that no operator chain can match).
    static func chainPlainLoop() -> Int {
        added {
            plainLoop(
                count: chainCount, step1, keep1, step2, keep2, step3, keep3, step4, keep4, step5, keep5)
        }
    }

    @inline(never)
    static func plainLoop(
        count: Int, _ m1: (Int) -> Int, _ k1: (Int) -> Bool, _ m2: (Int) -> Int, _ k2: (Int) -> Bool,
        _ m3: (Int) -> Int, _ k3: (Int) -> Bool, _ m4: (Int) -> Int, _ k4: (Int) -> Bool, _ m5: (Int) -> Int,
        _ k5: (Int) -> Bool
    ) {
        for value in 0..<count {
            let a = m1(value)
            guard k1(a) else { continue }
            let b = m2(a)
            guard k2(b) else { continue }
            let c = m3(b)
            guard k3(c) else { continue }
            let d = m4(c)
            guard k4(d) else { continue }
            let e = m5(d)
            guard k5(e) else { continue }
            sink &+= e
        }
    }

    // MARK: (b) subscribe and dispose

    static let subscribeCount = 100_000

    /// A run: 100,000 subscriptions made and disposed; its output, the subscriptions made (each counted as it is
    /// made, outside the library).
    static func subscribeOurs() -> () -> Int {
        let pipe = ValuePipe<Int>()
        let signal = pipe.signal() |> map { $0 + 1 }
        return {
            added {
                for _ in 0..<subscribeCount {
                    let disposable = signal.start(next: { blackHole($0) })
                    sink &+= 1
                    disposable.dispose()
                }
            }
        }
    }

    static func subscribePeer() -> () -> Int {
        let subject = PassthroughSubject<Int, Never>()
        let publisher = subject.map { $0 + 1 }
        return {
            added {
                for _ in 0..<subscribeCount {
                    let cancellable = publisher.sink { blackHole($0) }
                    sink &+= 1
                    cancellable.cancel()
                }
            }
        }
    }

    // MARK: (c) combineLatest of three

    static func combineOurs() -> () -> Int {
        let pipes = (0..<3).map { _ in ValuePipe<Int>() }
        return {
            added {
                let disposable = combineLatest(pipes[0].signal(), pipes[1].signal(), pipes[2].signal()).start(
                    next: { a, b, c in sink &+= a &+ b &+ c })
                for value in 0..<chainCount { pipes[value % 3].putNext(value) }
                disposable.dispose()
            }
        }
    }

    static func combinePeer() -> () -> Int {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        return {
            added {
                // OpenCombine 0.14.0 has no CombineLatest (nor Merge): this is the hand-written equivalent a user would
                // write, three sinks sharing the latest values under a lock and feeding one output subject.
                let output = PassthroughSubject<(Int, Int, Int), Never>()
                let outputCancellable = output.sink { a, b, c in sink &+= a &+ b &+ c }
                let lock = Lock()
                var latest: [Int?] = [nil, nil, nil]
                let cancellables = (0..<3).map { index in
                    subjects[index].sink { value in
                        let combined: (Int, Int, Int)? = lock.locked {
                            latest[index] = value
                            guard let a = latest[0], let b = latest[1], let c = latest[2] else { return nil }
                            return (a, b, c)
                        }
                        if let combined { output.send(combined) }
                    }
                }
                for value in 0..<chainCount { subjects[value % 3].send(value) }
                for cancellable in cancellables { cancellable.cancel() }
                outputCancellable.cancel()
            }
        }
    }

    // MARK: (d) fan-out

    static let fanOutUpdates = 100_000
    static let fanOutSubscribers = 100

    static func fanOutOurs() -> Int {
        added {
            let promise = ValuePromise(0)
            let disposables = (0..<fanOutSubscribers).map { _ in
                promise.get().start(next: { value in sink &+= value })
            }
            for value in 1...fanOutUpdates { promise.set(value) }
            for disposable in disposables { disposable.dispose() }
        }
    }

    static func fanOutPeer() -> Int {
        added {
            let subject = CurrentValueSubject<Int, Never>(0)
            let cancellables = (0..<fanOutSubscribers).map { _ in subject.sink { sink &+= $0 } }
            for value in 1...fanOutUpdates { subject.send(value) }
            for cancellable in cancellables { cancellable.cancel() }
        }
    }

    // MARK: (e) hop to a serial queue

    static func deliverOurs() -> () -> Int {
        let queue = Queue(name: "bench.deliver")
        let source = Signal<Int, NoError> { subscriber in
            for value in 0..<chainCount { subscriber.putNext(value) }
            subscriber.putCompletion()
            return EmptyDisposable
        }
        return {
            added {
                let done = DispatchSemaphore(value: 0)
                _ = (source |> deliverOn(queue)).start(
                    next: { value in sink &+= value }, completed: { done.signal() })
                done.wait()
            }
        }
    }

    static func deliverPeer() -> () -> Int {
        let queue = DispatchQueue(label: "bench.receive")
        return {
            added {
                let done = DispatchSemaphore(value: 0)
                let cancellable = (0..<chainCount).publisher
                    .receive(on: queue.ocombine)
                    .sink(receiveCompletion: { _ in done.signal() }, receiveValue: { sink &+= $0 })
                done.wait()
                cancellable.cancel()
            }
        }
    }
}
